-- Revision ID: 0004_orders_customer_not_null_check
-- Revises: 0003_orders_retries_and_note
-- Step 1 of making customer_id NOT NULL without a long lock.
SET lock_timeout = '2s';

ALTER TABLE orders
    ADD CONSTRAINT orders_customer_id_not_null CHECK (customer_id IS NOT NULL) NOT VALID;
