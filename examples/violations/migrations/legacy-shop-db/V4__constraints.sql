SET lock_timeout = '3s';
SET statement_timeout = '20min';

ALTER TABLE orders ADD CONSTRAINT orders_total_positive CHECK (total >= 0);
ALTER TABLE order_items ADD CONSTRAINT order_items_order_fk FOREIGN KEY (order_id) REFERENCES orders (id);
ALTER TABLE orders ADD CONSTRAINT orders_public_id_key UNIQUE (public_id);
ALTER TABLE order_items ADD CONSTRAINT order_items_pkey PRIMARY KEY USING INDEX order_items_id_idx;
ALTER TABLE delivery_slots ADD CONSTRAINT delivery_slots_no_overlap
    EXCLUDE USING gist (courier_id WITH =, during WITH &&);
