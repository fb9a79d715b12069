-- Seat policies (API-v2 "Seat policies"): overdraft, linger, per-user and per-host caps, reservations; the
-- lease learns whether it was an overdraft grant and when its holder released it (a lingering seat); the
-- history learns why a checkout was refused; an administrator's revoke may block the install for a while.
ALTER TABLE license ADD COLUMN overdraft_seats INT DEFAULT 0 NOT NULL;
ALTER TABLE license ADD COLUMN linger_seconds INT DEFAULT 0 NOT NULL;
ALTER TABLE license ADD COLUMN max_per_user INT;
ALTER TABLE license ADD COLUMN max_per_host INT;
-- [{"name":..,"users":[..],"hosts":[..],"seats":n}], as the admin API shows it; NULL when there are none
ALTER TABLE license ADD COLUMN reservations VARCHAR(8000);

ALTER TABLE lease ADD COLUMN overdraft BOOLEAN DEFAULT FALSE NOT NULL;
-- Set when the holder released a seat that lingers: still live (the one rule) until expires_at + skew
ALTER TABLE lease ADD COLUMN released_at BIGINT;

ALTER TABLE lease_event ADD COLUMN reason VARCHAR(32);
ALTER TABLE lease_event ADD COLUMN overdraft BOOLEAN DEFAULT FALSE NOT NULL;

-- An install an administrator revoked and blocked: refused (403 install-blocked) while now < blocked_until.
CREATE TABLE install_block (
    license_id         VARCHAR(40)  NOT NULL,
    client_instance_id VARCHAR(128) NOT NULL,
    blocked_until      BIGINT       NOT NULL,
    blocked_at         BIGINT       NOT NULL,
    PRIMARY KEY (license_id, client_instance_id),
    CONSTRAINT fk_block_license FOREIGN KEY (license_id) REFERENCES license (id)
);
