-- Reclaim space after the 2025 purge.
VACUUM FULL orders;
CLUSTER order_items USING order_items_pkey;
REINDEX TABLE orders;
REFRESH MATERIALIZED VIEW daily_revenue;
DROP INDEX idx_orders_legacy_code;
ALTER TABLE customers SET UNLOGGED;
