-- Revision ID: 0001_create_stream_events
-- Create Date: 2026-09-03 14:00:00
-- A new table, hash-sharded by stream_id: creating it blocks nobody.
SET lock_timeout = '2s';

CREATE TABLE stream_events (
    stream_id   uuid NOT NULL,
    seq         bigint NOT NULL,
    event_type  text NOT NULL,
    payload     jsonb NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (stream_id, seq)
);
