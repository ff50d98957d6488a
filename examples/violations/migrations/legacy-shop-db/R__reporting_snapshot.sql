-- Repeatable migration: Flyway re-applies it whenever this file changes.
CREATE TABLE reporting_snapshot (day date PRIMARY KEY, revenue numeric(14, 2));
