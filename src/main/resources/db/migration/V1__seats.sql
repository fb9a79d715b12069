-- Keyright Seats schema, version 1. The same script runs on the embedded default (H2 in MariaDB mode)
-- and on MariaDB. Times are epoch milliseconds (BIGINT) on the server's clock.

CREATE TABLE license (
    id               VARCHAR(40)  NOT NULL PRIMARY KEY,
    product          VARCHAR(64)  NOT NULL,
    key_hash         VARCHAR(64)  NOT NULL,
    seats            INT          NOT NULL,
    ttl_seconds      INT          NOT NULL,
    skew_seconds     INT          NOT NULL,
    status           VARCHAR(16)  NOT NULL,
    customer         VARCHAR(256),
    not_after        BIGINT,
    created_at       BIGINT       NOT NULL,
    checkouts        BIGINT       NOT NULL,
    last_checkout_at BIGINT,
    CONSTRAINT uq_license_key_hash UNIQUE (key_hash)
);

CREATE TABLE lease (
    id                 VARCHAR(40)  NOT NULL PRIMARY KEY,
    license_id         VARCHAR(40)  NOT NULL,
    client_instance_id VARCHAR(128) NOT NULL,
    holder_user        VARCHAR(256),
    holder_host        VARCHAR(256),
    acquired_at        BIGINT       NOT NULL,
    expires_at         BIGINT       NOT NULL,
    CONSTRAINT fk_lease_license FOREIGN KEY (license_id) REFERENCES license (id),
    CONSTRAINT uq_lease_install UNIQUE (license_id, client_instance_id)
);
-- The live count: WHERE license_id = ? AND expires_at >= ?
CREATE INDEX ix_lease_live ON lease (license_id, expires_at);
-- The reaper's sweep: WHERE expires_at < ?
CREATE INDEX ix_lease_expiry ON lease (expires_at);

CREATE TABLE lease_event (
    id                 VARCHAR(40)  NOT NULL PRIMARY KEY,
    license_id         VARCHAR(40)  NOT NULL,
    lease_id           VARCHAR(40),
    kind               VARCHAR(16)  NOT NULL,
    at_millis          BIGINT       NOT NULL,
    client_instance_id VARCHAR(128),
    holder_user        VARCHAR(256),
    holder_host        VARCHAR(256)
);
CREATE INDEX ix_event_lease ON lease_event (lease_id);
CREATE INDEX ix_event_license_time ON lease_event (license_id, at_millis);
CREATE INDEX ix_event_time ON lease_event (at_millis);

CREATE TABLE idempotency_record (
    id          VARCHAR(64)   NOT NULL PRIMARY KEY,
    license_id  VARCHAR(40)   NOT NULL,
    idem_key    VARCHAR(255)  NOT NULL,
    fingerprint VARCHAR(64)   NOT NULL,
    status      INT           NOT NULL,
    location    VARCHAR(255),
    body        VARCHAR(4000) NOT NULL,
    created_at  BIGINT        NOT NULL
);
CREATE INDEX ix_idempotency_created ON idempotency_record (created_at);

CREATE TABLE signing_key (
    kid          VARCHAR(64)   NOT NULL PRIMARY KEY,
    algorithm    VARCHAR(16)   NOT NULL,
    public_jwk   VARCHAR(2000) NOT NULL,
    private_key  VARCHAR(4000) NOT NULL,
    created_at   BIGINT        NOT NULL
);

CREATE TABLE setting (
    name  VARCHAR(64)   NOT NULL PRIMARY KEY,
    setting_value VARCHAR(2000) NOT NULL
);
