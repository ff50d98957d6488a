SET lock_timeout = '2s';
ALTER TABLE invoice_lines ADD COLUMN tax_code text NOT NULL DEFAULT 'std';
ALTER TABLE invoice_lines ALTER COLUMN quantity TYPE bigint;
ALTER TABLE invoice_lines ALTER COLUMN unit_price TYPE bigint;
-- a typo nobody caught in review; the statements around it are still checked
ALTER TABEL invoice_lines ADD COLUMN discount numeric;
ALTER TABLE invoice_lines ADD COLUMN line_uuid uuid DEFAULT gen_random_uuid();
