ALTER TABLE invoices RENAME COLUMN total TO amount_due;
ALTER TABLE invoices DROP COLUMN legacy_ref;
