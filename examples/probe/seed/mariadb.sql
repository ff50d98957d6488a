-- Run in a scratch database: mariadb -e 'CREATE DATABASE probe_example' &&
-- mariadb probe_example < seed/mariadb.sql
CREATE TABLE entries (id INT PRIMARY KEY);
INSERT INTO entries SELECT seq FROM seq_1_to_5000;
ANALYZE TABLE entries;
