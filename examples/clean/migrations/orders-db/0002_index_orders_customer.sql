-- Revision ID: 0002_index_orders_customer
-- Revises: 0001_create_orders
-- CONCURRENTLY cannot run in a transaction: this revision runs in an
-- autocommit block (op.get_context().autocommit_block()).
SET lock_timeout = '2s';
SET statement_timeout = '30min';

CREATE INDEX CONCURRENTLY IF NOT EXISTS idx_orders_customer ON orders (customer_id);
