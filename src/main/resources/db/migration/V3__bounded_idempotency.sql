-- Idempotency records are bounded per install and per license (IdempotencyRecords): each knows its
-- install, and the newest of an install or a license are one indexed read. The stored body holds the
-- largest acquire answer the request limits allow (metadata of 256 + 256 characters, escaped in the token).
ALTER TABLE idempotency_record ADD COLUMN client_instance_id VARCHAR(128);
ALTER TABLE idempotency_record MODIFY COLUMN body VARCHAR(12000) NOT NULL;
CREATE INDEX ix_idempotency_install ON idempotency_record (license_id, client_instance_id, created_at);
CREATE INDEX ix_idempotency_license ON idempotency_record (license_id, created_at);
