-- Speeds up the event timeline page.
SET lock_timeout = '3s';
CREATE INDEX CONCURRENTLY idx_events_at ON events (at);
