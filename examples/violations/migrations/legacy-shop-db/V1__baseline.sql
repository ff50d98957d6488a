-- Flyway baseline of legacy-shop-db
CREATE TABLE customers (
    id         integer PRIMARY KEY,
    email      varchar(100) NOT NULL,
    phone      char(12),
    prefs      json,
    created_at timestamp NOT NULL DEFAULT now()
);
CREATE TABLE orders (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    customer_id bigint,
    status      text,
    total       numeric(12, 2),
    legacy_code text
);
CREATE TABLE order_items (
    id       bigint NOT NULL,
    order_id bigint REFERENCES orders (id),
    sku      text
);
CREATE TABLE delivery_slots (id bigint, courier_id bigint, during tstzrange);
CREATE TABLE events (id bigint, at timestamptz NOT NULL) PARTITION BY RANGE (at);
CREATE TABLE events_2024 PARTITION OF events FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
CREATE MATERIALIZED VIEW daily_revenue AS
    SELECT date_trunc('day', now()) AS day, sum(total) AS revenue FROM orders;
CREATE INDEX idx_orders_legacy_code ON orders (legacy_code);
CREATE UNIQUE INDEX order_items_id_idx ON order_items (id);
