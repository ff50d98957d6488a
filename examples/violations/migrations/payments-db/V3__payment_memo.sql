SET SESSION lock_wait_timeout = 5;
ALTER TABLE payments MODIFY memo varchar(100), ALGORITHM=INPLACE, LOCK=NONE;
ALTER TABLE payments ADD COLUMN note text, ALGORITHM=COPY;
ALTER TABLE payments MODIFY state ENUM('new', 'failed', 'paid') NOT NULL DEFAULT 'new';
