-- Revision ID: 0007_orders_drop_not_null_check
-- Revises: 0006_order_items_sku_unique
-- The NOT NULL constraint now holds; the helper check can go (brief lock).
SET lock_timeout = '2s';

ALTER TABLE orders DROP CONSTRAINT orders_customer_id_not_null;
