-- A new table: nothing uses it yet, so creating it blocks nobody.
SET lock_timeout = '2s';

CREATE TABLE invoices (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    customer_id bigint NOT NULL,
    total       numeric(12, 2) NOT NULL,
    issued_at   timestamptz NOT NULL DEFAULT now()
);
