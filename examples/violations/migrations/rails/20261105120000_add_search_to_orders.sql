-- Extracted from db/migrate/20261105120000_add_search_to_orders.rb
-- (ActiveRecord::Migration[7.1], execute <<~SQL)
BEGIN;
ALTER TABLE shop_orders ADD COLUMN search_vector tsvector;
CREATE INDEX CONCURRENTLY index_shop_orders_on_search_vector ON shop_orders USING gin (search_vector);
COMMIT;
