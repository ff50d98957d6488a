-- ALTER forms replayed one by one on MariaDB 10.11 (forced ALGORITHM=/LOCK=
-- probes on a copy), each on a fresh database. `-- form: <name>` starts one.

-- form: VARCHAR of 40 bytes grows past 255 bytes in place
CREATE TABLE t (id int PRIMARY KEY, v varchar(10)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4; INSERT INTO t VALUES (1, 'a');
ALTER TABLE t MODIFY v varchar(100);

-- form: VARCHAR of 124 bytes grows to 128 bytes in place
CREATE TABLE t (id int PRIMARY KEY, v varchar(31)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4; INSERT INTO t VALUES (1, 'a');
ALTER TABLE t MODIFY v varchar(32);

-- form: VARCHAR of 240 bytes past 255 bytes copies
CREATE TABLE t (id int PRIMARY KEY, v varchar(60)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4; INSERT INTO t VALUES (1, 'a');
ALTER TABLE t MODIFY v varchar(100);

-- form: VARCHAR of 128 bytes past 255 bytes copies
CREATE TABLE t (id int PRIMARY KEY, v varchar(32)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4; INSERT INTO t VALUES (1, 'a');
ALTER TABLE t MODIFY v varchar(64);

-- form: VARCHAR of 256 bytes grows in place
CREATE TABLE t (id int PRIMARY KEY, v varchar(64)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4; INSERT INTO t VALUES (1, 'a');
ALTER TABLE t MODIFY v varchar(100);

-- form: latin1 VARCHAR within 255 bytes
CREATE TABLE t (id int PRIMARY KEY, v varchar(100)) ENGINE=InnoDB DEFAULT CHARSET=latin1; INSERT INTO t VALUES (1, 'a');
ALTER TABLE t MODIFY v varchar(200);

-- form: RENAME TO takes LOCK=EXCLUSIVE
CREATE TABLE t (id int PRIMARY KEY, a int) ENGINE=InnoDB; INSERT INTO t VALUES (1, 1);
ALTER TABLE t RENAME TO t_renamed;

-- form: DROP COLUMN of an indexed column
CREATE TABLE t (id int PRIMARY KEY, a int, b int, KEY t_a (a)) ENGINE=InnoDB; INSERT INTO t VALUES (1, 1, 1);
ALTER TABLE t DROP COLUMN a;

-- form: DROP COLUMN of a column indexed by CREATE INDEX
CREATE TABLE t (id int PRIMARY KEY, a int, b int) ENGINE=InnoDB;
CREATE INDEX t_a ON t (a);
ALTER TABLE t DROP COLUMN a;

-- form: DROP COLUMN of a UNIQUE column
CREATE TABLE t (id int PRIMARY KEY, a int UNIQUE, b int) ENGINE=InnoDB;
ALTER TABLE t DROP COLUMN a;

-- form: DROP COLUMN of a column not in an index
CREATE TABLE t (id int PRIMARY KEY, a int, b int, KEY t_a (a)) ENGINE=InnoDB;
ALTER TABLE t DROP COLUMN b;

-- form: MODIFY of a column whose type the history does not know
CREATE TABLE t0 (id int PRIMARY KEY, a int) ENGINE=InnoDB;
CREATE TABLE t ENGINE=InnoDB AS SELECT * FROM t0;
ALTER TABLE t MODIFY a bigint;

-- form: CHANGE of a column whose type the history does not know
CREATE TABLE t0 (id int PRIMARY KEY, note varchar(20)) ENGINE=InnoDB;
CREATE TABLE t ENGINE=InnoDB AS SELECT * FROM t0;
ALTER TABLE t CHANGE note memo text;
