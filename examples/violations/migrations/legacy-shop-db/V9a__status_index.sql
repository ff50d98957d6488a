-- `9a` is not a Flyway version: Flyway refuses the migration.
CREATE INDEX idx_orders_status ON orders (status);
