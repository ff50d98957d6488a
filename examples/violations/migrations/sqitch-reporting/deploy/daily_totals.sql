BEGIN;
CREATE TABLE daily_totals (
    day    date PRIMARY KEY,
    orders bigint NOT NULL,
    amount numeric(14, 2) NOT NULL
);
COMMIT;
