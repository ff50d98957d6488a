ALTER TABLE payments MODIFY amount bigint NOT NULL;
