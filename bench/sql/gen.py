#!/usr/bin/env python3
"""Writes a mixed-DDL PostgreSQL migration of N statements (deterministic).

Usage: gen.py N OUT.sql

Every statement kind platcheck and squawk both read appears: table and index
creation, column adds with and without defaults, type changes, constraints,
NOT NULL, renames, drops, backfills, session settings, comments, a DO block
with a dollar-quoted body. Most statements raise at least one finding, so
the run measures reporting as well as parsing.
"""
import sys

TEMPLATES = [
    "CREATE TABLE t{i} (id bigint PRIMARY KEY, name varchar(50), created_at timestamptz)",
    "CREATE INDEX idx_t{j}_name_{i} ON t{j} (name)",
    "CREATE INDEX CONCURRENTLY idx_t{j}_created_{i} ON t{j} (created_at)",
    "ALTER TABLE t{j} ADD COLUMN c{i} integer DEFAULT 0",
    "ALTER TABLE t{j} ADD COLUMN u{i} uuid DEFAULT gen_random_uuid()",
    "ALTER TABLE t{j} ALTER COLUMN name TYPE varchar(100)",
    "ALTER TABLE t{j} ALTER COLUMN id TYPE numeric(20, 0)",
    "ALTER TABLE t{j} ALTER COLUMN name SET NOT NULL",
    "ALTER TABLE t{j} ADD CONSTRAINT t{j}_fk_{i} FOREIGN KEY (id) REFERENCES t{k} (id)",
    "ALTER TABLE t{j} ADD CONSTRAINT t{j}_ck_{i} CHECK (id > 0) NOT VALID",
    "ALTER TABLE t{j} RENAME COLUMN name TO name_{i}",
    "UPDATE t{j} SET created_at = now() WHERE id < {i}",
    "SET statement_timeout = '{i}s'",
    "-- note {i}; with a semicolon\nDROP INDEX IF EXISTS idx_old_{i}",
    "DO $$ BEGIN RAISE NOTICE 'step {i}; done'; END $$",
    "ALTER TABLE t{j} DROP COLUMN IF EXISTS c{k}",
]


def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    with open(out, "w") as f:
        for i in range(n):
            # Tables referenced are from a rolling window, so most statements
            # touch a table created in an earlier file (existing), not this one.
            t = TEMPLATES[(i * 7) % len(TEMPLATES)]
            f.write(t.format(i=i, j=(i * 13) % 500 + 100000, k=(i * 17) % 500 + 100000))
            f.write(";\n")


if __name__ == "__main__":
    main()
