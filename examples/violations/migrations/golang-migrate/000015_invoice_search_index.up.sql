CREATE INDEX CONCURRENTLY idx_invoices_customer_id_issued_at_status_currency_region_channel_v2
    ON invoices (customer_id, issued_at);
