SET lock_timeout = '3s';
-- The FK from the baseline is replaced by order_items_order_fk.
ALTER TABLE order_items DROP CONSTRAINT order_items_order_id_fkey;
