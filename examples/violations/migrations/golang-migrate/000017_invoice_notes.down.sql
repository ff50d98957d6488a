-- The up file was renamed to 000018_… in review; this down script was left behind.
ALTER TABLE invoices DROP COLUMN notes;
