-- Revision ID: 0006_order_items_sku_unique
-- Revises: 0005_orders_customer_not_null
-- Build the unique index online (in an autocommit block: the COMMIT and
-- BEGIN of Alembic's SQL export), then attach it as a constraint (brief lock).
SET lock_timeout = '2s';
SET statement_timeout = '30min';

COMMIT;
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS order_items_order_sku_key
    ON order_items (order_id, sku);
BEGIN;
ALTER TABLE order_items
    ADD CONSTRAINT order_items_order_sku_key UNIQUE USING INDEX order_items_order_sku_key;
