BEGIN;
DROP TABLE daily_totals;
COMMIT;
