-- Offline use (API-v2 "Borrowing a seat for offline use", "Node-locked activations"): a license's model
-- (floating seats or node-locked activations), how long a floating seat may be borrowed, how many machines a
-- node-locked license may activate and how long one may run offline; a lease learns when it was borrowed (a
-- borrowed lease is still just a lease: live by the one rule until expires_at + skew); activations get a table.
ALTER TABLE license ADD COLUMN model VARCHAR(16) DEFAULT 'floating' NOT NULL;
ALTER TABLE license ADD COLUMN max_borrow_hours INT DEFAULT 0 NOT NULL;
ALTER TABLE license ADD COLUMN max_activations INT;
ALTER TABLE license ADD COLUMN offline_days INT DEFAULT 30 NOT NULL;

-- Set when the holder borrowed the seat: expires_at is then the borrowed end, which renew never moves.
ALTER TABLE lease ADD COLUMN borrowed_at BIGINT;

-- One machine's slot on a node-locked license, for the activation's life: only a deactivation or an
-- administrator's revoke ends it (ended_at, ended_how). live_fingerprint is the fingerprint while the
-- activation is live and NULL once it ended, so the database keeps one live activation per machine and
-- license (a unique key admits many NULLs) while ended rows stay to tell 410 from 404.
CREATE TABLE activation (
    id               VARCHAR(40)  NOT NULL PRIMARY KEY,
    license_id       VARCHAR(40)  NOT NULL,
    fingerprint      VARCHAR(128) NOT NULL,
    live_fingerprint VARCHAR(128),
    holder_user      VARCHAR(256),
    holder_host      VARCHAR(256),
    activated_at     BIGINT       NOT NULL,
    refreshed_at     BIGINT       NOT NULL,
    ended_at         BIGINT,
    ended_how        VARCHAR(16),
    CONSTRAINT fk_activation_license FOREIGN KEY (license_id) REFERENCES license (id),
    CONSTRAINT uq_activation_live UNIQUE (license_id, live_fingerprint)
);
CREATE INDEX ix_activation_license ON activation (license_id, ended_at);
