BEGIN;

-- Running upgrade 1c2d8e0f9a11 -> 3f2a9c1d7b44

ALTER TYPE invoice_state ADD VALUE 'refunded';

UPDATE invoices SET state = 'refunded' WHERE refunded_at IS NOT NULL;

ALTER TABLE invoices ADD CONSTRAINT invoices_amount_check CHECK (amount >= 0) NOT VALID;

ALTER TABLE invoices VALIDATE CONSTRAINT invoices_amount_check;

CREATE INDEX CONCURRENTLY ix_invoices_customer_id ON invoices (customer_id);

UPDATE alembic_version SET version_num='3f2a9c1d7b44' WHERE alembic_version.version_num = '1c2d8e0f9a11';

COMMIT;
