-- Run in a scratch database (the e2e test does; so can you):
--   createdb probe_example && psql -d probe_example -f seed/postgres.sql
--   ALTER DATABASE probe_example SET statement_timeout = '30s';
CREATE TABLE orders AS SELECT g AS id FROM generate_series(1, 5000) g;
CREATE TABLE order_items AS SELECT g AS id FROM generate_series(1, 100) g;
ANALYZE orders;
ANALYZE order_items;
