-- Revision ID: 0003_orders_retries_and_note
-- Revises: 0002_index_orders_customer
-- A constant default is stored in the catalog (PostgreSQL 11+): no rewrite.
-- varchar(200) -> text is binary-coercible: no rewrite either.
SET lock_timeout = '2s';

ALTER TABLE orders
    ADD COLUMN retries integer NOT NULL DEFAULT 0,
    ALTER COLUMN note TYPE text;
