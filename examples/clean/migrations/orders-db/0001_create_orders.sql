-- Revision ID: 0001_create_orders
-- Create Date: 2026-09-01 10:00:00
-- Tables are new in this migration: indexes and foreign keys on them block nobody.
SET lock_timeout = '2s';

CREATE TABLE orders (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    customer_id bigint,
    status      text NOT NULL DEFAULT 'new',
    total       numeric(12, 2) NOT NULL,
    note        varchar(200),
    attributes  jsonb NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE order_items (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    order_id   bigint NOT NULL REFERENCES orders (id),
    sku        text NOT NULL,
    quantity   integer NOT NULL CHECK (quantity > 0)
);

CREATE INDEX idx_order_items_order ON order_items (order_id);
