-- The queue of installs waiting for a seat (Prefer: wait). One row per (license, install); read and written
-- only under the license row lock, in the checkout transaction that counts the live leases. A row is waiting
-- while now <= last_seen_at + the queue keep (QueueKeep); the line is ordered by ticket, a number taken under
-- the lock, one more than the largest ticket in the license's queue.
CREATE TABLE queue_entry (
    id                 VARCHAR(40)  NOT NULL PRIMARY KEY,
    license_id         VARCHAR(40)  NOT NULL,
    client_instance_id VARCHAR(128) NOT NULL,
    holder_user        VARCHAR(256),
    holder_host        VARCHAR(256),
    ticket             BIGINT       NOT NULL,
    joined_at          BIGINT       NOT NULL,
    last_seen_at       BIGINT       NOT NULL,
    CONSTRAINT fk_queue_license FOREIGN KEY (license_id) REFERENCES license (id),
    CONSTRAINT uq_queue_install UNIQUE (license_id, client_instance_id)
);
CREATE INDEX ix_queue_line ON queue_entry (license_id, ticket);
