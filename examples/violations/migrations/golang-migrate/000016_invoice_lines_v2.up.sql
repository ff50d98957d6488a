-- Two branches both took version 16: golang-migrate refuses the directory.
ALTER TABLE invoice_lines ADD COLUMN currency char(3);
