SET SESSION lock_wait_timeout = 5;
ALTER TABLE entries ADD COLUMN shard_key double DEFAULT (RAND()), ALGORITHM=INSTANT;
