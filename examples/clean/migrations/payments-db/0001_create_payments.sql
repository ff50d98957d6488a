-- Revision ID: 0001_create_payments
-- Create Date: 2026-09-02 09:30:00
-- A new table: nothing reads or writes it yet, so creating it blocks nobody.
SET SESSION lock_wait_timeout = 5;

CREATE TABLE payments (
    id          bigint NOT NULL AUTO_INCREMENT PRIMARY KEY,
    order_id    bigint NOT NULL,
    amount      decimal(12, 2) NOT NULL,
    currency    varchar(3) NOT NULL,
    state       varchar(16) NOT NULL DEFAULT 'new',
    created_at  datetime NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
