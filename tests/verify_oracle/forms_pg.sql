-- Statement forms replayed one by one on PostgreSQL 15, each on a fresh
-- scratch database: the setup makes the hazard real (rows, foreign keys
-- both ways, a DEFAULT partition with rows, a domain with a CHECK, a
-- plpgsql VOLATILE function, a sequence used by a default), the last
-- statement is the form. `-- form: <name>` starts one.

-- form: drop FK column, referenced table locked
CREATE TABLE p (id int PRIMARY KEY); INSERT INTO p VALUES (1), (2);
CREATE TABLE c (id int PRIMARY KEY, p_id int REFERENCES p (id)); INSERT INTO c VALUES (1, 1);
ALTER TABLE c DROP COLUMN p_id;

-- form: drop FK column declared as a table constraint
CREATE TABLE p (id int PRIMARY KEY);
CREATE TABLE c (id int PRIMARY KEY, p_id int, CONSTRAINT c_p_fk FOREIGN KEY (p_id) REFERENCES p);
ALTER TABLE c DROP COLUMN p_id;

-- form: drop FK column added later by ALTER TABLE
CREATE TABLE p (id int PRIMARY KEY);
CREATE TABLE c (id int PRIMARY KEY, p_id int);
ALTER TABLE c ADD CONSTRAINT c_p_fk FOREIGN KEY (p_id) REFERENCES p (id);
ALTER TABLE c DROP COLUMN IF EXISTS p_id;

-- form: drop a column that is not in the FK
CREATE TABLE p (id int PRIMARY KEY);
CREATE TABLE c (id int PRIMARY KEY, p_id int REFERENCES p (id), note text);
ALTER TABLE c DROP COLUMN note;

-- form: drop referenced column CASCADE, referencing table locked
CREATE TABLE p (id int PRIMARY KEY, code int UNIQUE); INSERT INTO p VALUES (1, 10);
CREATE TABLE c (id int PRIMARY KEY, p_code int REFERENCES p (code)); INSERT INTO c VALUES (1, 10);
ALTER TABLE p DROP COLUMN code CASCADE;

-- form: SET NOT NULL on a column already NOT NULL (nothing to check, no scan)
CREATE TABLE t (id int PRIMARY KEY, a int NOT NULL); INSERT INTO t VALUES (1, 1), (2, 2);
ALTER TABLE t ALTER COLUMN a SET NOT NULL;

-- form: timestamp to timestamptz under UTC on an indexed column (no rewrite, the index is rebuilt: a scan)
SET TimeZone = 'UTC';
CREATE TABLE t (id int PRIMARY KEY, at timestamp); CREATE INDEX t_at ON t (at); INSERT INTO t VALUES (1, now());
ALTER TABLE t ALTER COLUMN at TYPE timestamptz;

-- form: type change of an FK column (rewrite)
CREATE TABLE p (id bigint PRIMARY KEY); INSERT INTO p VALUES (1);
CREATE TABLE c (id int PRIMARY KEY, p_id int REFERENCES p (id)); INSERT INTO c VALUES (1, 1);
ALTER TABLE c ALTER COLUMN p_id TYPE bigint;

-- form: same-type restatement of an FK column (no rewrite, FK rebuilt)
CREATE TABLE p (id uuid PRIMARY KEY);
CREATE TABLE c (id int PRIMARY KEY, p_id uuid REFERENCES p (id));
ALTER TABLE c ALTER COLUMN p_id TYPE uuid, ALTER COLUMN p_id DROP NOT NULL;

-- form: type change of a referenced primary key, every referencing table
CREATE TABLE p (id int PRIMARY KEY); INSERT INTO p VALUES (1);
CREATE TABLE c1 (id int PRIMARY KEY, p_id bigint REFERENCES p (id)); INSERT INTO c1 VALUES (1, 1);
CREATE TABLE c2 (id int PRIMARY KEY, p_id bigint REFERENCES p); INSERT INTO c2 VALUES (1, 1);
ALTER TABLE p ALTER COLUMN id TYPE bigint;

-- form: type change of a column that is not the referenced key
CREATE TABLE p (id int PRIMARY KEY, n int);
CREATE TABLE c (id int PRIMARY KEY, p_id int REFERENCES p (id));
ALTER TABLE p ALTER COLUMN n TYPE bigint;

-- form: DROP TABLE of a child, referenced table locked
CREATE TABLE p (id int PRIMARY KEY);
CREATE TABLE c (id int PRIMARY KEY, p_id int REFERENCES p (id));
DROP TABLE c;

-- form: DROP TABLE of a child after the parent was renamed
CREATE TABLE p (id int PRIMARY KEY);
CREATE TABLE c (id int PRIMARY KEY, p_id int REFERENCES p (id));
ALTER TABLE p RENAME TO p2;
DROP TABLE c;

-- form: DROP TABLE after its FK column was dropped
CREATE TABLE p (id int PRIMARY KEY);
CREATE TABLE c (id int PRIMARY KEY, p_id int REFERENCES p (id));
ALTER TABLE c DROP COLUMN p_id;
DROP TABLE c;

-- form: DROP TABLE CASCADE, referencing tables and views
CREATE TABLE p (id int PRIMARY KEY); INSERT INTO p VALUES (1);
CREATE TABLE c (id int PRIMARY KEY, p_id int REFERENCES p (id)); INSERT INTO c VALUES (1, 1);
CREATE MATERIALIZED VIEW p_mv AS SELECT id FROM p;
CREATE VIEW p_v AS SELECT id FROM p;
DROP TABLE p CASCADE;

-- form: DROP TABLE CASCADE reaching a view built on a view
CREATE TABLE p (id int PRIMARY KEY);
CREATE VIEW p_v AS SELECT id FROM p;
CREATE MATERIALIZED VIEW p_mv AS SELECT id FROM p_v;
DROP TABLE IF EXISTS p CASCADE;

-- form: DROP TABLE of two tables, one referencing the other
CREATE TABLE p (id int PRIMARY KEY);
CREATE TABLE c (id int PRIMARY KEY, p_id int REFERENCES p (id));
DROP TABLE c, p;

-- form: TRUNCATE of a referenced table is refused
CREATE TABLE p (id int PRIMARY KEY); INSERT INTO p VALUES (1);
CREATE TABLE c (id int PRIMARY KEY, p_id int REFERENCES p (id));
TRUNCATE p;

-- form: TRUNCATE of a referenced table together with its children
CREATE TABLE p (id int PRIMARY KEY);
CREATE TABLE c (id int PRIMARY KEY, p_id int REFERENCES p (id));
TRUNCATE p, c;

-- form: TRUNCATE CASCADE
CREATE TABLE p (id int PRIMARY KEY); INSERT INTO p VALUES (1);
CREATE TABLE c (id int PRIMARY KEY, p_id int REFERENCES p (id)); INSERT INTO c VALUES (1, 1);
TRUNCATE p CASCADE;

-- form: ATTACH PARTITION with a DEFAULT partition holding rows
CREATE TABLE ev (id int, at date) PARTITION BY RANGE (at);
CREATE TABLE ev_default PARTITION OF ev DEFAULT;
INSERT INTO ev VALUES (1, '2020-01-01'), (2, '2030-01-01');
CREATE TABLE ev_2026 (id int, at date);
ALTER TABLE ev ATTACH PARTITION ev_2026 FOR VALUES FROM ('2026-01-01') TO ('2027-01-01');

-- form: CREATE TABLE PARTITION OF with a DEFAULT partition holding rows
CREATE TABLE ev (id int, at date) PARTITION BY RANGE (at);
CREATE TABLE ev_default PARTITION OF ev DEFAULT;
INSERT INTO ev VALUES (1, '2020-01-01');
CREATE TABLE ev_2026 PARTITION OF ev FOR VALUES FROM ('2026-01-01') TO ('2027-01-01');

-- form: ATTACH PARTITION without a DEFAULT partition
CREATE TABLE ev (id int, at date) PARTITION BY RANGE (at);
CREATE TABLE ev_2025 PARTITION OF ev FOR VALUES FROM ('2025-01-01') TO ('2026-01-01');
CREATE TABLE ev_2026 (id int, at date);
ALTER TABLE ev ATTACH PARTITION ev_2026 FOR VALUES FROM ('2026-01-01') TO ('2027-01-01');

-- form: list partition with a DEFAULT partition
CREATE TABLE st (id int, region text) PARTITION BY LIST (region);
CREATE TABLE st_other PARTITION OF st DEFAULT;
INSERT INTO st VALUES (1, 'eu');
CREATE TABLE st_us PARTITION OF st FOR VALUES IN ('us');

-- form: CREATE INDEX on a partitioned table, every partition
CREATE TABLE ev (id int, at date) PARTITION BY RANGE (at);
CREATE TABLE ev_2025 PARTITION OF ev FOR VALUES FROM ('2025-01-01') TO ('2026-01-01');
CREATE TABLE ev_2026 PARTITION OF ev FOR VALUES FROM ('2026-01-01') TO ('2027-01-01');
INSERT INTO ev VALUES (1, '2025-06-01'), (2, '2026-06-01');
CREATE INDEX ev_id_idx ON ev (id);

-- form: CREATE INDEX on a partitioned table with an attached partition
CREATE TABLE ev (id int, at date) PARTITION BY RANGE (at);
CREATE TABLE ev_2026 (id int, at date);
ALTER TABLE ev ATTACH PARTITION ev_2026 FOR VALUES FROM ('2026-01-01') TO ('2027-01-01');
CREATE UNIQUE INDEX ev_id_at_idx ON ev (id, at);

-- form: CREATE INDEX on a sub-partitioned table
CREATE TABLE ev (id int, at date, k int) PARTITION BY RANGE (at);
CREATE TABLE ev_2026 PARTITION OF ev FOR VALUES FROM ('2026-01-01') TO ('2027-01-01') PARTITION BY LIST (k);
CREATE TABLE ev_2026_1 PARTITION OF ev_2026 FOR VALUES IN (1);
CREATE INDEX ev_k_idx ON ev (k);

-- form: CREATE INDEX CONCURRENTLY on a partitioned table is refused
CREATE TABLE ev (id int, at date) PARTITION BY RANGE (at);
CREATE TABLE ev_2026 PARTITION OF ev FOR VALUES FROM ('2026-01-01') TO ('2027-01-01');
CREATE INDEX CONCURRENTLY ev_id_idx ON ev (id);

-- form: CREATE INDEX ON ONLY a partitioned table
CREATE TABLE ev (id int, at date) PARTITION BY RANGE (at);
CREATE TABLE ev_2026 PARTITION OF ev FOR VALUES FROM ('2026-01-01') TO ('2027-01-01');
CREATE INDEX ev_id_idx ON ONLY ev (id);

-- form: ALTER SEQUENCE RESTART, the sequence a default uses
CREATE SEQUENCE ord_seq;
CREATE TABLE ord (id bigint PRIMARY KEY DEFAULT nextval('ord_seq'), a int);
INSERT INTO ord (a) VALUES (1);
ALTER SEQUENCE ord_seq RESTART WITH 1000;

-- form: ALTER SEQUENCE INCREMENT BY
CREATE SEQUENCE ord_seq;
CREATE TABLE ord (id bigint PRIMARY KEY DEFAULT nextval('ord_seq'), a int);
ALTER SEQUENCE ord_seq INCREMENT BY 10;

-- form: ALTER SEQUENCE of a serial column
CREATE TABLE ord (id serial PRIMARY KEY, a int);
INSERT INTO ord (a) VALUES (1);
ALTER SEQUENCE ord_id_seq MAXVALUE 1000000;

-- form: DROP POLICY
CREATE TABLE t (id int PRIMARY KEY, owner text);
ALTER TABLE t ENABLE ROW LEVEL SECURITY;
CREATE POLICY t_own ON t USING (owner = current_user);
DROP POLICY t_own ON t;

-- form: DROP POLICY IF EXISTS
CREATE TABLE t (id int PRIMARY KEY, owner text);
CREATE POLICY t_own ON t USING (owner = current_user);
DROP POLICY IF EXISTS t_own ON t;

-- form: ALTER POLICY
CREATE TABLE t (id int PRIMARY KEY, owner text);
CREATE POLICY t_own ON t USING (owner = current_user);
ALTER POLICY t_own ON t USING (true);

-- form: DROP VIEW
CREATE TABLE t (id int PRIMARY KEY);
CREATE VIEW t_v AS SELECT id FROM t;
DROP VIEW t_v;

-- form: DROP VIEW CASCADE reaching a materialized view
CREATE TABLE t (id int PRIMARY KEY);
CREATE VIEW t_v AS SELECT id FROM t;
CREATE MATERIALIZED VIEW t_mv AS SELECT id FROM t_v;
DROP VIEW t_v CASCADE;

-- form: DROP MATERIALIZED VIEW
CREATE TABLE t (id int PRIMARY KEY);
CREATE MATERIALIZED VIEW t_mv AS SELECT id FROM t;
DROP MATERIALIZED VIEW t_mv;

-- form: DROP MATERIALIZED VIEW IF EXISTS of two
CREATE TABLE t (id int PRIMARY KEY);
CREATE MATERIALIZED VIEW t_mv AS SELECT id FROM t;
CREATE MATERIALIZED VIEW t_mv2 AS SELECT id FROM t;
DROP MATERIALIZED VIEW IF EXISTS t_mv, t_mv2;

-- form: CREATE OR REPLACE VIEW of an existing view
CREATE TABLE t (id int PRIMARY KEY, a int);
CREATE VIEW t_v AS SELECT id FROM t;
CREATE OR REPLACE VIEW t_v AS SELECT id, a FROM t;

-- form: DROP FUNCTION CASCADE of a trigger function
CREATE FUNCTION touch() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN NEW.a := 1; RETURN NEW; END$$;
CREATE TABLE t1 (id int PRIMARY KEY, a int);
CREATE TABLE t2 (id int PRIMARY KEY, a int);
CREATE TRIGGER t1_touch BEFORE INSERT ON t1 FOR EACH ROW EXECUTE FUNCTION touch();
CREATE TRIGGER t2_touch BEFORE INSERT ON t2 FOR EACH ROW EXECUTE PROCEDURE touch();
DROP FUNCTION touch() CASCADE;

-- form: ALTER TRIGGER RENAME
CREATE FUNCTION touch() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN RETURN NEW; END$$;
CREATE TABLE t (id int PRIMARY KEY, a int);
CREATE TRIGGER t_touch BEFORE INSERT ON t FOR EACH ROW EXECUTE FUNCTION touch();
ALTER TRIGGER t_touch ON t RENAME TO t_touch2;

-- form: SET user_catalog_table
CREATE TABLE t (id int PRIMARY KEY, a int);
ALTER TABLE t SET (user_catalog_table = true);

-- form: SET fillfactor and autovacuum
CREATE TABLE t (id int PRIMARY KEY, a int);
ALTER TABLE t SET (fillfactor = 80, autovacuum_vacuum_scale_factor = 0.01);

-- form: SET toast autovacuum
CREATE TABLE t (id int PRIMARY KEY, b text);
ALTER TABLE t SET (toast.autovacuum_enabled = false);

-- form: RESET parameters
CREATE TABLE t (id int PRIMARY KEY, a int) WITH (fillfactor = 70);
ALTER TABLE t RESET (fillfactor);

-- form: SET mixed parameters take the stronger lock
CREATE TABLE t (id int PRIMARY KEY, a int);
ALTER TABLE t SET (fillfactor = 80, user_catalog_table = true);

-- form: USING the column itself
CREATE TABLE t (id int PRIMARY KEY, v varchar(10)); INSERT INTO t VALUES (1, 'a');
ALTER TABLE t ALTER COLUMN v TYPE varchar(20) USING v;

-- form: USING a relabel cast
CREATE TABLE t (id int PRIMARY KEY, v varchar(10)); INSERT INTO t VALUES (1, 'a');
ALTER TABLE t ALTER COLUMN v TYPE text USING v::text;

-- form: USING an expression rewrites
CREATE TABLE t (id int PRIMARY KEY, v varchar(10)); INSERT INTO t VALUES (1, 'a');
ALTER TABLE t ALTER COLUMN v TYPE text USING lower(v);

-- form: USING a cast that converts rewrites
CREATE TABLE t (id int PRIMARY KEY, n text); INSERT INTO t VALUES (1, '5');
ALTER TABLE t ALTER COLUMN n TYPE int USING n::int;

-- form: timestamp precision grows
CREATE TABLE t (id int PRIMARY KEY, at timestamp(3)); INSERT INTO t VALUES (1, now());
ALTER TABLE t ALTER COLUMN at TYPE timestamp(6);

-- form: timestamp precision dropped
CREATE TABLE t (id int PRIMARY KEY, at timestamp(3)); INSERT INTO t VALUES (1, now());
ALTER TABLE t ALTER COLUMN at TYPE timestamp;

-- form: timestamp precision shrinks rewrites
CREATE TABLE t (id int PRIMARY KEY, at timestamp); INSERT INTO t VALUES (1, now());
ALTER TABLE t ALTER COLUMN at TYPE timestamp(0);

-- form: timestamp to timestamptz after SET timezone UTC
CREATE TABLE t (id int PRIMARY KEY, at timestamp); INSERT INTO t VALUES (1, now());
SET timezone = 'UTC';
ALTER TABLE t ALTER COLUMN at TYPE timestamptz USING at;

-- form: timestamp to timestamptz after SET TIME ZONE UTC
CREATE TABLE t (id int PRIMARY KEY, at timestamp); INSERT INTO t VALUES (1, now());
SET TIME ZONE 'UTC';
ALTER TABLE t ALTER COLUMN at TYPE timestamp with time zone;

-- form: timestamp to timestamptz in another time zone rewrites
CREATE TABLE t (id int PRIMARY KEY, at timestamp); INSERT INTO t VALUES (1, now());
SET timezone = 'Europe/Paris';
ALTER TABLE t ALTER COLUMN at TYPE timestamptz;

-- form: timestamptz to timestamp under UTC
CREATE TABLE t (id int PRIMARY KEY, at timestamptz); INSERT INTO t VALUES (1, now());
SET TIME ZONE 'Etc/UTC';
ALTER TABLE t ALTER COLUMN at TYPE timestamp;

-- form: SET TABLESPACE to the table's own
CREATE TABLE t (id int PRIMARY KEY, a int); INSERT INTO t VALUES (1, 1);
ALTER TABLE t SET TABLESPACE pg_default;

-- form: SET ACCESS METHOD heap on a heap table
CREATE TABLE t (id int PRIMARY KEY, a int); INSERT INTO t VALUES (1, 1);
ALTER TABLE t SET ACCESS METHOD heap;

-- form: ADD COLUMN of a domain with a CHECK and a constant default
CREATE DOMAIN posint AS int CHECK (VALUE > 0);
CREATE TABLE t (id int PRIMARY KEY, a int); INSERT INTO t VALUES (1, 1);
ALTER TABLE t ADD COLUMN c posint DEFAULT 1;

-- form: ADD COLUMN of a domain with a CHECK and no default
CREATE DOMAIN posint AS int CHECK (VALUE > 0);
CREATE TABLE t (id int PRIMARY KEY, a int); INSERT INTO t VALUES (1, 1);
ALTER TABLE t ADD COLUMN c posint;

-- form: ADD COLUMN of an unconstrained domain
CREATE DOMAIN label AS text;
CREATE TABLE t (id int PRIMARY KEY, a int); INSERT INTO t VALUES (1, 1);
ALTER TABLE t ADD COLUMN c label DEFAULT 'x';

-- form: ADD COLUMN default calling a plpgsql VOLATILE function
CREATE FUNCTION next_code() RETURNS text LANGUAGE plpgsql AS $$BEGIN RETURN md5(random()::text); END$$;
CREATE TABLE t (id int PRIMARY KEY, a int); INSERT INTO t VALUES (1, 1);
ALTER TABLE t ADD COLUMN code text NOT NULL DEFAULT next_code();

-- form: ADD COLUMN default calling an IMMUTABLE function
CREATE FUNCTION zero() RETURNS int LANGUAGE sql IMMUTABLE AS $$SELECT 0$$;
CREATE TABLE t (id int PRIMARY KEY, a int); INSERT INTO t VALUES (1, 1);
ALTER TABLE t ADD COLUMN c int DEFAULT zero();

-- form: ADD COLUMN default calling a STABLE built-in
CREATE TABLE t (id int PRIMARY KEY, a int); INSERT INTO t VALUES (1, 1);
ALTER TABLE t ADD COLUMN c timestamptz DEFAULT now();

-- form: ADD COLUMN default calling a VOLATILE built-in
CREATE TABLE t (id int PRIMARY KEY, a int); INSERT INTO t VALUES (1, 1);
ALTER TABLE t ADD COLUMN c timestamptz DEFAULT clock_timestamp();

-- form: ADD COLUMN default nextval of a sequence
CREATE SEQUENCE t_seq;
CREATE TABLE t (id int PRIMARY KEY, a int); INSERT INTO t VALUES (1, 1);
ALTER TABLE t ADD COLUMN n bigint DEFAULT nextval('t_seq');

-- form: ADD COLUMN with a CHECK scans
CREATE TABLE t (id int PRIMARY KEY, a int); INSERT INTO t VALUES (1, 1);
ALTER TABLE t ADD COLUMN c int DEFAULT 1 CHECK (c > 0);

-- form: ANALYZE one table
CREATE TABLE t (id int PRIMARY KEY, a int); INSERT INTO t SELECT g, g FROM generate_series(1, 50) g;
ANALYZE t;

-- form: ANALYZE columns of two tables
CREATE TABLE t (id int PRIMARY KEY, a int);
CREATE TABLE u (id int PRIMARY KEY, b int);
ANALYZE t (a), u;

-- form: INSERT into a child checks the referenced table
CREATE TABLE p (id int PRIMARY KEY); INSERT INTO p VALUES (1);
CREATE TABLE c (id int PRIMARY KEY, p_id int REFERENCES p (id));
INSERT INTO c VALUES (1, 1);

-- form: DELETE from a parent with ON DELETE CASCADE children
CREATE TABLE p (id int PRIMARY KEY); INSERT INTO p VALUES (1);
CREATE TABLE c (id int PRIMARY KEY, p_id int REFERENCES p (id) ON DELETE CASCADE); INSERT INTO c VALUES (1, 1);
DELETE FROM p;

-- form: DELETE from a parent with NO ACTION children
CREATE TABLE p (id int PRIMARY KEY); INSERT INTO p VALUES (1), (2);
CREATE TABLE c (id int PRIMARY KEY, p_id int REFERENCES p (id)); INSERT INTO c VALUES (1, 1);
DELETE FROM p WHERE id = 2;

-- form: UPDATE through a CTE
CREATE TABLE t (id int PRIMARY KEY, a int); INSERT INTO t VALUES (1, 1);
WITH x AS (SELECT 1 AS id) UPDATE t SET a = 2 FROM x WHERE t.id = x.id;

-- form: INSERT into a partitioned table routes to one partition
CREATE TABLE ev (id int, at date) PARTITION BY RANGE (at);
CREATE TABLE ev_2025 PARTITION OF ev FOR VALUES FROM ('2025-01-01') TO ('2026-01-01');
CREATE TABLE ev_2026 PARTITION OF ev FOR VALUES FROM ('2026-01-01') TO ('2027-01-01');
INSERT INTO ev VALUES (1, '2026-06-01');

-- form: DROP TABLE of a temporary table
CREATE TEMPORARY TABLE tmp AS SELECT 1 AS id;
DROP TABLE tmp;

-- form: DROP INDEX named under another schema is not the index
CREATE TABLE t (id int PRIMARY KEY, a int);
CREATE INDEX t_a_idx ON t (a);
DROP INDEX IF EXISTS t.t_a_idx;

-- form: DROP INDEX after ALTER INDEX RENAME
CREATE TABLE t (id int PRIMARY KEY, a int);
CREATE INDEX t_a_idx ON t (a);
ALTER INDEX t_a_idx RENAME TO t_a_idx2;
DROP INDEX t_a_idx2;

-- form: type change to COLLATE "C" on an indexed column
CREATE TABLE t (id int PRIMARY KEY, b text); INSERT INTO t VALUES (1, 'x');
CREATE INDEX t_b_idx ON t (b);
ALTER TABLE t ALTER COLUMN b TYPE text COLLATE "C";

-- form: a rewrite locks every index of the table
CREATE TABLE t (id int PRIMARY KEY, a int, b int); INSERT INTO t VALUES (1, 1, 1);
CREATE INDEX t_a_idx ON t (a);
CREATE UNIQUE INDEX t_b_idx ON t (b);
ALTER TABLE t ALTER COLUMN a TYPE bigint;

-- form: a volatile default's rewrite locks every index
CREATE TABLE t (id int PRIMARY KEY, a int); INSERT INTO t VALUES (1, 1);
CREATE INDEX t_a_idx ON t (a);
ALTER TABLE t ADD COLUMN r float8 DEFAULT random();

-- form: an index dropped with its column is not locked by a later rewrite
CREATE TABLE t (id int PRIMARY KEY, a int, b int); INSERT INTO t VALUES (1, 1, 1);
CREATE INDEX t_a_idx ON t (a);
CREATE INDEX t_ab_idx ON t (lower(a::text), b);
ALTER TABLE t DROP COLUMN a;
ALTER TABLE t ALTER COLUMN b TYPE bigint;

-- form: REINDEX TABLE locks each index
CREATE TABLE t (id int PRIMARY KEY, a int);
CREATE INDEX t_a_idx ON t (a);
REINDEX TABLE t;

-- form: DROP INDEX locks the index and its table
CREATE TABLE t (id int PRIMARY KEY, a int); INSERT INTO t VALUES (1, 1);
CREATE INDEX t_a_idx ON t (a);
DROP INDEX t_a_idx;

-- form: a rewrite after the UNIQUE constraint's index was dropped with it
CREATE TABLE t (id int PRIMARY KEY, a int, b int, CONSTRAINT t_a_key UNIQUE (a));
ALTER TABLE t DROP CONSTRAINT t_a_key;
ALTER TABLE t ALTER COLUMN b TYPE bigint;

-- form: VACUUM FULL names the indexes it rebuilds
CREATE TABLE t (id int PRIMARY KEY, a int); CREATE INDEX t_a_idx ON t (a); INSERT INTO t VALUES (1, 1);
VACUUM FULL t;

-- form: CLUSTER names the indexes it rebuilds
CREATE TABLE t (id int PRIMARY KEY, a int); CREATE INDEX t_a_idx ON t (a); INSERT INTO t VALUES (1, 1);
CLUSTER t USING t_a_idx;

-- form: SET UNLOGGED names the indexes it rebuilds
CREATE TABLE t (id int PRIMARY KEY, a int); CREATE INDEX t_a_idx ON t (a);
ALTER TABLE t SET UNLOGGED;

-- form: ADD COLUMN bigserial names the indexes it rebuilds
CREATE TABLE t (id int PRIMARY KEY, a int); CREATE INDEX t_a_idx ON t (a); INSERT INTO t VALUES (1, 1);
ALTER TABLE t ADD COLUMN s bigserial;

-- form: ADD COLUMN identity names the indexes it rebuilds
CREATE TABLE t (id int PRIMARY KEY, a int); CREATE INDEX t_a_idx ON t (a); INSERT INTO t VALUES (1, 1);
ALTER TABLE t ADD COLUMN s bigint GENERATED ALWAYS AS IDENTITY;

-- form: TRUNCATE names the indexes it empties
CREATE TABLE t (id int PRIMARY KEY, a int); CREATE INDEX t_a_idx ON t (a); INSERT INTO t VALUES (1, 1);
TRUNCATE t;

-- form: TRUNCATE CASCADE names the children's indexes too
CREATE TABLE p (id int PRIMARY KEY, a int); CREATE INDEX p_a_idx ON p (a);
CREATE TABLE c (id int PRIMARY KEY, p_id int REFERENCES p (id)); CREATE INDEX c_p_idx ON c (p_id);
TRUNCATE p CASCADE;

-- form: DROP TABLE names the indexes that go with it
CREATE TABLE t (id int PRIMARY KEY, a int); CREATE INDEX t_a_idx ON t (a);
DROP TABLE t;

-- form: REFRESH MATERIALIZED VIEW names the view's indexes
CREATE TABLE t (id int PRIMARY KEY, a int); INSERT INTO t VALUES (1, 1);
CREATE MATERIALIZED VIEW mv AS SELECT id, a FROM t; CREATE INDEX mv_a_idx ON mv (a);
REFRESH MATERIALIZED VIEW mv;

-- form: REINDEX TABLE names each index
CREATE TABLE t (id int PRIMARY KEY, a int); CREATE INDEX t_a_idx ON t (a); CREATE INDEX t_ia_idx ON t (id, a);
REINDEX TABLE t;

-- form: REINDEX INDEX names the index
CREATE TABLE t (id int PRIMARY KEY, a int); CREATE INDEX t_a_idx ON t (a);
REINDEX INDEX t_a_idx;

-- form: ALTER COLUMN TYPE names every index it rebuilds
CREATE TABLE t (id int PRIMARY KEY, a int, b int); CREATE INDEX t_a_idx ON t (a); CREATE INDEX t_b_idx ON t (b);
ALTER TABLE t ALTER COLUMN a TYPE bigint;

-- form: DROP COLUMN names the indexes that go with the column
CREATE TABLE t (id int PRIMARY KEY, a int, b int); CREATE INDEX t_a_idx ON t (a); CREATE INDEX t_ab_idx ON t (a, b); CREATE INDEX t_b_idx ON t (b);
ALTER TABLE t DROP COLUMN a;

-- form: DROP COLUMN of a UNIQUE column names its constraint's index
CREATE TABLE t (id int PRIMARY KEY, code text UNIQUE);
ALTER TABLE t DROP COLUMN code;

-- form: DROP CONSTRAINT of a primary key names its index
CREATE TABLE t (id int, CONSTRAINT t_pk PRIMARY KEY (id));
ALTER TABLE t DROP CONSTRAINT t_pk;

-- form: DROP MATERIALIZED VIEW names the view's indexes
CREATE TABLE t (id int PRIMARY KEY, a int);
CREATE MATERIALIZED VIEW mv AS SELECT id, a FROM t; CREATE UNIQUE INDEX mv_id_idx ON mv (id);
DROP MATERIALIZED VIEW mv;

-- form: DROP VIEW CASCADE names the indexes of the materialized views it reaches
CREATE TABLE t (id int PRIMARY KEY, a int);
CREATE VIEW v AS SELECT id, a FROM t;
CREATE MATERIALIZED VIEW mv AS SELECT id FROM v; CREATE INDEX mv_id_idx ON mv (id);
DROP VIEW v CASCADE;

-- form: a rewrite names the indexes of inline PRIMARY KEY and UNIQUE columns
CREATE TABLE t (id int PRIMARY KEY, code int UNIQUE, n int); INSERT INTO t VALUES (1, 1, 1);
ALTER TABLE t ALTER COLUMN n TYPE bigint;

-- form: a rewrite after RENAME TO names the indexes by their kept names
CREATE TABLE t (id int PRIMARY KEY, n int); CREATE INDEX t_n_idx ON t (n);
ALTER TABLE t RENAME TO t2;
ALTER TABLE t2 ALTER COLUMN n TYPE bigint;

-- form: RENAME CONSTRAINT of a primary key names its index
CREATE TABLE t (id int PRIMARY KEY, a int);
ALTER TABLE t RENAME CONSTRAINT t_pkey TO t_pk;

-- form: a rewrite after RENAME CONSTRAINT names the renamed index
CREATE TABLE t (id int, a int, CONSTRAINT t_a_key UNIQUE (a)); INSERT INTO t VALUES (1, 1);
ALTER TABLE t RENAME CONSTRAINT t_a_key TO t_a_uniq;
ALTER TABLE t ALTER COLUMN id TYPE bigint;

-- form: RENAME CONSTRAINT of a CHECK locks no index
CREATE TABLE t (id int PRIMARY KEY, a int CONSTRAINT t_a_check CHECK (a > 0));
ALTER TABLE t RENAME CONSTRAINT t_a_check TO t_a_positive;

-- form: CLUSTER ON names the index it marks
CREATE TABLE t (id int PRIMARY KEY, a int); CREATE INDEX t_a_idx ON t (a);
ALTER TABLE t CLUSTER ON t_a_idx;

-- form: SET WITHOUT CLUSTER
CREATE TABLE t (id int PRIMARY KEY, a int); CREATE INDEX t_a_idx ON t (a);
ALTER TABLE t CLUSTER ON t_a_idx;
ALTER TABLE t SET WITHOUT CLUSTER;

-- form: ADD UNIQUE USING INDEX names the index
CREATE TABLE t (id int PRIMARY KEY, a int); CREATE UNIQUE INDEX t_a_idx ON t (a);
ALTER TABLE t ADD CONSTRAINT t_a_key UNIQUE USING INDEX t_a_idx;

-- form: a rewrite after USING INDEX names the index by the constraint's name
CREATE TABLE t (id int PRIMARY KEY, a int); CREATE UNIQUE INDEX t_a_idx ON t (a); INSERT INTO t VALUES (1, 1);
ALTER TABLE t ADD CONSTRAINT t_a_key UNIQUE USING INDEX t_a_idx;
ALTER TABLE t ALTER COLUMN id TYPE bigint;

-- form: swap the primary key USING INDEX
CREATE TABLE t (id int PRIMARY KEY, a int); CREATE UNIQUE INDEX t_id_new ON t (id);
ALTER TABLE t DROP CONSTRAINT t_pkey, ADD CONSTRAINT t_pk PRIMARY KEY USING INDEX t_id_new;

-- form: ALTER INDEX RENAME locks the index only
CREATE TABLE t (id int PRIMARY KEY, a int); CREATE INDEX t_a_idx ON t (a);
ALTER INDEX t_a_idx RENAME TO t_a_idx2;

-- form: ALTER INDEX IF EXISTS RENAME of a constraint's index
CREATE TABLE t (id int PRIMARY KEY, a int);
ALTER INDEX IF EXISTS t_pkey RENAME TO t_pk_idx;

-- form: ALTER INDEX ATTACH PARTITION
CREATE TABLE ev (id int, at date) PARTITION BY RANGE (at);
CREATE TABLE ev_2026 PARTITION OF ev FOR VALUES FROM ('2026-01-01') TO ('2027-01-01');
CREATE TABLE ev_2027 PARTITION OF ev FOR VALUES FROM ('2027-01-01') TO ('2028-01-01');
CREATE INDEX ev_id_idx ON ONLY ev (id);
CREATE INDEX ev_2026_id_idx ON ev_2026 (id); CREATE INDEX ev_2027_id_idx ON ev_2027 (id);
ALTER INDEX ev_id_idx ATTACH PARTITION ev_2026_id_idx;
ALTER INDEX ev_id_idx ATTACH PARTITION ev_2027_id_idx;

-- form: ADD UNIQUE USING INDEX of an index already named as the constraint
CREATE TABLE t (id int PRIMARY KEY, a int); CREATE UNIQUE INDEX t_a_key ON t (a);
ALTER TABLE t ADD CONSTRAINT t_a_key UNIQUE USING INDEX t_a_key;

-- form: TOAST: a rewrite of a table with a text column locks its TOAST table
CREATE TABLE t (id int PRIMARY KEY, a int, b text); INSERT INTO t VALUES (1, 1, repeat('x', 9000));
ALTER TABLE t ALTER COLUMN a TYPE bigint;

-- form: TOAST: a rewrite of a table of narrow columns has no TOAST table to lock
CREATE TABLE t (id int PRIMARY KEY, a int, v varchar(10), at timestamptz); INSERT INTO t VALUES (1, 1, 'a', now());
ALTER TABLE t ALTER COLUMN a TYPE bigint;

-- form: TOAST: varchar(500) alone fits a page, no TOAST table (TRUNCATE)
CREATE TABLE t (id int PRIMARY KEY, v varchar(500));
TRUNCATE t;

-- form: TOAST: two varchar(255) columns may not fit, a TOAST table (TRUNCATE)
CREATE TABLE t (id int PRIMARY KEY, a varchar(255), b varchar(255));
TRUNCATE t;

-- form: TOAST: numeric without a precision (DROP TABLE)
CREATE TABLE t (id int PRIMARY KEY, n numeric);
DROP TABLE t;

-- form: TOAST: numeric(12,2) has a bound (DROP TABLE)
CREATE TABLE t (id int PRIMARY KEY, n numeric(12,2));
DROP TABLE t;

-- form: TOAST: CLUSTER of a table with a jsonb column
CREATE TABLE t (id int PRIMARY KEY, doc jsonb); INSERT INTO t VALUES (1, '{}');
CLUSTER t USING t_pkey;

-- form: TOAST: REINDEX TABLE takes SHARE on the TOAST table
CREATE TABLE t (id int PRIMARY KEY, b bytea); INSERT INTO t VALUES (1, 'x');
REINDEX TABLE t;

-- form: TOAST: REINDEX INDEX does not reach the TOAST table
CREATE TABLE t (id int PRIMARY KEY, b bytea); INSERT INTO t VALUES (1, 'x');
REINDEX INDEX t_pkey;

-- form: TOAST: SET (fillfactor) sets the TOAST table's options too
CREATE TABLE t (id int PRIMARY KEY, tags text[]);
ALTER TABLE t SET (fillfactor = 70);

-- form: TOAST: RESET (autovacuum) on a table without one
CREATE TABLE t (id int PRIMARY KEY, a int);
ALTER TABLE t RESET (autovacuum_enabled);

-- form: TOAST: a volatile default rewrites the table and its TOAST table
CREATE TABLE t (id int PRIMARY KEY, addr inet); INSERT INTO t VALUES (1, '10.0.0.1');
ALTER TABLE t ADD COLUMN r float8 DEFAULT random();

-- form: TOAST: the column added by ALTER TABLE makes the TOAST table
CREATE TABLE t (id int PRIMARY KEY, a int); ALTER TABLE t ADD COLUMN note text;
TRUNCATE t;

-- form: TOAST: a partitioned table has none, its partitions have (TRUNCATE)
CREATE TABLE ev (id int, at date, body text) PARTITION BY RANGE (at);
CREATE TABLE ev_2026 PARTITION OF ev FOR VALUES FROM ('2026-01-01') TO ('2027-01-01');
TRUNCATE ev_2026;

-- form: TOAST: DROP MATERIALIZED VIEW of a text column (the history cannot size it)
CREATE TABLE t (id int PRIMARY KEY, b text); CREATE MATERIALIZED VIEW t_mv AS SELECT id, b FROM t;
DROP MATERIALIZED VIEW t_mv;

-- form: TOAST: DROP TABLE CASCADE drops a dependent materialized view's TOAST table
CREATE TABLE t (id int PRIMARY KEY, b text); CREATE MATERIALIZED VIEW t_mv AS SELECT id, b FROM t;
DROP TABLE t CASCADE;

-- form: TOAST: INSERT of a long value writes the TOAST table (ROW EXCLUSIVE)
CREATE TABLE t (id int PRIMARY KEY, b text);
INSERT INTO t VALUES (1, (SELECT string_agg(md5(g::text), '') FROM generate_series(1, 500) g));

-- form: TOAST: DELETE of rows with long values
CREATE TABLE t (id int PRIMARY KEY, b text); INSERT INTO t VALUES (1, (SELECT string_agg(md5(g::text), '') FROM generate_series(1, 500) g));
DELETE FROM t;

-- form: TOAST: VACUUM FULL of a table with a TOAST table (watched)
CREATE TABLE t (id int PRIMARY KEY, b text); INSERT INTO t VALUES (1, repeat('x', 9000));
VACUUM FULL t;

-- form: TOAST: VACUUM of a table with a TOAST table (watched)
CREATE TABLE t (id int PRIMARY KEY, b text); INSERT INTO t VALUES (1, repeat('x', 9000));
VACUUM t;

-- form: TOAST: REINDEX TABLE CONCURRENTLY (watched)
CREATE TABLE t (id int PRIMARY KEY, b text); INSERT INTO t VALUES (1, repeat('x', 9000));
REINDEX TABLE CONCURRENTLY t;

-- form: TOAST index: SET UNLOGGED rebuilds the TOAST table's index (ACCESS EXCLUSIVE)
CREATE TABLE t (id int PRIMARY KEY, b text); INSERT INTO t VALUES (1, 'x');
ALTER TABLE t SET UNLOGGED;

-- form: TOAST index: SET (user_catalog_table) locks the TOAST table, not its index
CREATE TABLE t (id int PRIMARY KEY, b text);
ALTER TABLE t SET (user_catalog_table = true);

-- form: TOAST index: TRUNCATE gives the TOAST table's index a new file
CREATE TABLE t (id int PRIMARY KEY, doc jsonb); INSERT INTO t VALUES (1, '{}');
TRUNCATE t;

-- form: TOAST index: REFRESH MATERIALIZED VIEW rebuilds the view's TOAST index
CREATE TABLE t (id int PRIMARY KEY, b text); INSERT INTO t VALUES (1, 'x');
CREATE MATERIALIZED VIEW t_mv AS SELECT id, b FROM t;
REFRESH MATERIALIZED VIEW t_mv;

-- form: TOAST index: UPDATE writing a long value inserts into the TOAST index (ROW EXCLUSIVE)
CREATE TABLE t (id int PRIMARY KEY, b text); INSERT INTO t VALUES (1, 'x');
UPDATE t SET b = (SELECT string_agg(md5(g::text), '') FROM generate_series(1, 500) g);

-- form: TOAST index: a domain with a CHECK added with a default rewrites the TOAST index
CREATE DOMAIN pos AS int CHECK (VALUE > 0);
CREATE TABLE t (id int PRIMARY KEY, b text); INSERT INTO t VALUES (1, 'x');
ALTER TABLE t ADD COLUMN n pos DEFAULT 1;

-- form: TOAST index: DROP TABLE of two tables drops both TOAST indexes
CREATE TABLE t (id int PRIMARY KEY, b text); CREATE TABLE u (id int PRIMARY KEY, b bytea);
DROP TABLE t, u;

-- form: REINDEX INDEX CONCURRENTLY names the index it replaces (watched)
CREATE TABLE t (id int PRIMARY KEY, a int); CREATE INDEX t_a_idx ON t (a); INSERT INTO t VALUES (1, 1);
REINDEX INDEX CONCURRENTLY t_a_idx;

-- form: REINDEX TABLE CONCURRENTLY names each index and the TOAST index (watched)
CREATE TABLE t (id int PRIMARY KEY, a int, b text); CREATE INDEX t_a_idx ON t (a); INSERT INTO t VALUES (1, 1, 'x');
REINDEX TABLE CONCURRENTLY t;

-- form: TOAST layout: the declared column order decides the TOAST table (TRUNCATE)
CREATE TABLE t (a boolean, b bigint, v varchar(497), c boolean);
TRUNCATE t;

-- form: TOAST layout: the same columns in another order need none (TRUNCATE)
CREATE TABLE t (v varchar(497), b bigint, a boolean, c boolean);
TRUNCATE t;

-- form: ALTER INDEX SET (fillfactor) locks the index only
CREATE TABLE t (id int PRIMARY KEY, a int); CREATE INDEX t_a_idx ON t (a);
ALTER INDEX t_a_idx SET (fillfactor = 70);

-- form: ALTER INDEX RESET (deduplicate_items) of a btree
CREATE TABLE t (id int PRIMARY KEY, a int); CREATE INDEX t_a_idx ON t (a) WITH (deduplicate_items = off);
ALTER INDEX t_a_idx RESET (deduplicate_items);

-- form: ALTER INDEX SET (fastupdate) of a gin index is ACCESS EXCLUSIVE
CREATE TABLE t (id int PRIMARY KEY, doc jsonb); CREATE INDEX t_doc_gin ON t USING gin (doc);
ALTER INDEX t_doc_gin SET (fastupdate = off);

-- form: ALTER INDEX SET (buffering) of a gist index is ACCESS EXCLUSIVE
CREATE TABLE t (id int PRIMARY KEY, during tstzrange); CREATE INDEX t_during_gist ON t USING gist (during);
ALTER INDEX t_during_gist SET (buffering = on);

-- form: ALTER INDEX SET of a constraint's index
CREATE TABLE t (id int PRIMARY KEY, a int);
ALTER INDEX t_pkey SET (fillfactor = 80);

-- form: trigger body: an audit INSERT on another table (ROW EXCLUSIVE there)
CREATE TABLE t (id int PRIMARY KEY, a int); CREATE TABLE t_audit (id bigserial PRIMARY KEY, t_id int, op text);
CREATE FUNCTION t_audit() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN INSERT INTO public.t_audit (t_id, op) VALUES (NEW.id, TG_OP); RETURN NEW; END$$;
CREATE TRIGGER t_audit AFTER INSERT OR UPDATE ON t FOR EACH ROW EXECUTE FUNCTION t_audit();
INSERT INTO t VALUES (1, 1), (2, 2);

-- form: trigger body: a counter UPDATE on the parent table
CREATE TABLE p (id int PRIMARY KEY, n int NOT NULL DEFAULT 0); INSERT INTO p VALUES (1, 0);
CREATE TABLE c (id int PRIMARY KEY, p_id int);
CREATE FUNCTION c_count() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN IF TG_OP = 'INSERT' THEN UPDATE p SET n = n + 1 WHERE id = NEW.p_id; END IF; RETURN NULL; END$$;
CREATE TRIGGER c_count AFTER INSERT ON c FOR EACH ROW EXECUTE FUNCTION c_count();
INSERT INTO c VALUES (1, 1);

-- form: trigger body: DELETE FROM another table when rows are deleted
CREATE TABLE t (id int PRIMARY KEY); INSERT INTO t VALUES (1), (2);
CREATE TABLE t_cache (t_id int); INSERT INTO t_cache VALUES (1);
CREATE FUNCTION t_forget() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN DELETE FROM t_cache WHERE t_id = OLD.id; RETURN OLD; END$$;
CREATE TRIGGER t_forget BEFORE DELETE ON t FOR EACH ROW EXECUTE FUNCTION t_forget();
DELETE FROM t WHERE id = 1;

-- form: trigger body: the trigger does not fire (UPDATE trigger, INSERT statement)
CREATE TABLE t (id int PRIMARY KEY, a int); CREATE TABLE t_log (t_id int);
CREATE FUNCTION t_log() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN INSERT INTO t_log VALUES (NEW.id); RETURN NEW; END$$;
CREATE TRIGGER t_log AFTER UPDATE ON t FOR EACH ROW EXECUTE FUNCTION t_log();
INSERT INTO t VALUES (1, 1);

-- form: trigger body: a statement trigger writes even when no row changes
CREATE TABLE t (id int PRIMARY KEY, a int); CREATE TABLE t_stmts (at timestamptz);
CREATE FUNCTION t_stmt() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN INSERT INTO t_stmts VALUES (now()); RETURN NULL; END$$;
CREATE TRIGGER t_stmt AFTER UPDATE ON t FOR EACH STATEMENT EXECUTE FUNCTION t_stmt();
UPDATE t SET a = 2 WHERE false;

-- form: DROP INDEX CONCURRENTLY of an index the history created
CREATE TABLE t (id int PRIMARY KEY, a int, b text); CREATE INDEX t_a_idx ON t (a); INSERT INTO t VALUES (1, 1, 'x');
DROP INDEX CONCURRENTLY IF EXISTS t_a_idx;

-- form: TOAST: TRUNCATE CASCADE empties the FK children's TOAST tables and their indexes
CREATE TABLE p (id int PRIMARY KEY, b text); INSERT INTO p VALUES (1, 'x');
CREATE TABLE c (id int PRIMARY KEY, p_id int REFERENCES p, b text); INSERT INTO c VALUES (1, 1, 'y');
TRUNCATE p CASCADE;

-- form: TOAST: TRUNCATE CASCADE follows the children's children, each with its TOAST table
CREATE TABLE p (id int PRIMARY KEY, b text);
CREATE TABLE c (id int PRIMARY KEY, p_id int REFERENCES p, b text);
CREATE TABLE c2 (id int PRIMARY KEY, c_id int REFERENCES c, z text); CREATE INDEX c2_c_idx ON c2 (c_id);
TRUNCATE p CASCADE;

-- form: TOAST: TRUNCATE of a partitioned table empties every partition and its TOAST table
CREATE TABLE ev (id int, at date, body text) PARTITION BY RANGE (at);
CREATE TABLE ev_2026 PARTITION OF ev FOR VALUES FROM ('2026-01-01') TO ('2027-01-01');
CREATE TABLE ev_d PARTITION OF ev DEFAULT; INSERT INTO ev VALUES (1, '2026-02-01', 'x'), (2, '2030-01-01', 'y');
TRUNCATE ev;

-- form: TOAST: TRUNCATE CASCADE reaching a partitioned child empties its partitions
CREATE TABLE p (id int PRIMARY KEY, b text);
CREATE TABLE ev (id int, at date, p_id int REFERENCES p, body text) PARTITION BY RANGE (at);
CREATE TABLE ev_2026 PARTITION OF ev FOR VALUES FROM ('2026-01-01') TO ('2027-01-01');
TRUNCATE p CASCADE;

-- form: TOAST: DROP TABLE of a partitioned table drops its sub-partitions and their TOAST tables
CREATE TABLE ev (id int, at date, body text) PARTITION BY RANGE (at);
CREATE TABLE ev_2026 PARTITION OF ev FOR VALUES FROM ('2026-01-01') TO ('2027-01-01') PARTITION BY RANGE (id);
CREATE TABLE ev_2026_a PARTITION OF ev_2026 FOR VALUES FROM (0) TO (1000); CREATE INDEX ev_2026_a_id ON ev_2026_a (id);
DROP TABLE ev;

-- form: TOAST: DROP TABLE CASCADE leaves the FK children's TOAST tables alone, drops the matviews'
CREATE TABLE p (id int PRIMARY KEY, b text);
CREATE TABLE c (id int PRIMARY KEY, p_id int REFERENCES p, b text);
CREATE VIEW v AS SELECT id, b FROM p; CREATE MATERIALIZED VIEW mv AS SELECT id, b FROM v;
DROP TABLE p CASCADE;

-- form: a partition of a parent with a foreign key clones it (SHARE ROW EXCLUSIVE on the referenced table)
CREATE TABLE p (id int PRIMARY KEY);
CREATE TABLE ev (id int, at date, p_id int REFERENCES p) PARTITION BY RANGE (at);
CREATE TABLE ev_2026 PARTITION OF ev FOR VALUES FROM ('2026-01-01') TO ('2027-01-01');

-- form: the partitions dropped with their parent are gone from the history (TRUNCATE of what they referenced)
CREATE TABLE p (id int PRIMARY KEY);
CREATE TABLE ev (id int, at date, p_id int) PARTITION BY RANGE (at);
CREATE TABLE ev_2026 (id int, at date, p_id int REFERENCES p);
ALTER TABLE ev ATTACH PARTITION ev_2026 FOR VALUES FROM ('2026-01-01') TO ('2027-01-01');
DROP TABLE ev;
TRUNCATE p;
