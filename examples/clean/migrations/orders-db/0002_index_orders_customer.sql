-- Revision ID: 0002_index_orders_customer
-- Revises: 0001_create_orders
-- CONCURRENTLY cannot run in a transaction: the revision builds the index in
-- an autocommit block (op.get_context().autocommit_block()), which Alembic's
-- SQL export writes as the COMMIT before it and the BEGIN after it.
SET lock_timeout = '2s';
SET statement_timeout = '30min';

COMMIT;
CREATE INDEX CONCURRENTLY IF NOT EXISTS idx_orders_customer ON orders (customer_id);
BEGIN;
