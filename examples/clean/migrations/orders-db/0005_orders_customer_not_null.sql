-- Revision ID: 0005_orders_customer_not_null
-- Revises: 0004_orders_customer_not_null_check
-- VALIDATE scans under SHARE UPDATE EXCLUSIVE (reads and writes continue);
-- SET NOT NULL then trusts the validated check and skips its own scan. It
-- comes last, so its ACCESS EXCLUSIVE lock ends with Alembic's transaction.
SET lock_timeout = '2s';
SET statement_timeout = '30min';

ALTER TABLE orders VALIDATE CONSTRAINT orders_customer_id_not_null;
ALTER TABLE orders ALTER COLUMN customer_id SET NOT NULL;
