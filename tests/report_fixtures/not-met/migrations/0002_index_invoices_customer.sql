-- The index is built in place on a hot table.
SET lock_timeout = '2s';
CREATE INDEX idx_invoices_customer ON invoices (customer_id);
