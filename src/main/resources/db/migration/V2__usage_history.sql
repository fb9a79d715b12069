-- Usage history: a grant's row learns when its lease ended, so peak concurrency over any window is
-- one indexed read of the grants that overlap it.
ALTER TABLE lease_event ADD COLUMN ended_at BIGINT;
CREATE INDEX ix_event_kind_time ON lease_event (license_id, kind, at_millis);
