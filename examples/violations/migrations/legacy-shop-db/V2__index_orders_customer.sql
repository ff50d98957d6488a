-- Speeds up the customer's order history page.
CREATE INDEX idx_orders_customer ON orders (customer_id);
