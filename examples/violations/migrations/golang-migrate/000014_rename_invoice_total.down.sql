TRUNCATE invoice_lines;
DROP TABLE invoice_archive;
