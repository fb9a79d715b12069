package dev.keyright.seats.idempotency.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.QueryHint;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * A successful acquire's response, stored in the same transaction as its lease and replayed byte for
 * byte to a retry with the same key. Keyed by (license, Idempotency-Key); kept 24 hours, and bounded per
 * install and per license ({@code IdempotencyRecords}).
 */
@Entity
@Table(name = "idempotency_record")
@NamedQuery(name = IdempotencyRecord.FIND_EXPIRED,
        query = "SELECT r.id FROM IdempotencyRecord r WHERE r.createdAt < :before ORDER BY r.createdAt")
@NamedQuery(name = IdempotencyRecord.DELETE_BY_IDS, query = "DELETE FROM IdempotencyRecord r WHERE r.id IN :ids")
@NamedQuery(name = IdempotencyRecord.FIND_NEWEST_OF_INSTALL, query = "SELECT r.id FROM IdempotencyRecord r"
        + " WHERE r.licenseId = :licenseId AND r.clientInstanceId = :clientInstanceId AND r.id <> :keep"
        + " ORDER BY r.createdAt DESC, r.id DESC",
        hints = @QueryHint(name = "eclipselink.jdbc.max-rows", value = "" + IdempotencyRecord.INSTALL_READ_LIMIT))
@NamedQuery(name = IdempotencyRecord.FIND_NEWEST_OF_LICENSE, query = "SELECT r.id FROM IdempotencyRecord r"
        + " WHERE r.licenseId = :licenseId AND r.id <> :keep ORDER BY r.createdAt DESC, r.id DESC")
public class IdempotencyRecord {

    public static final String FIND_EXPIRED = "IdempotencyRecord.findExpired";
    public static final String DELETE_BY_IDS = "IdempotencyRecord.deleteByIds";
    /**
     * The most of one install's records {@link #FIND_NEWEST_OF_INSTALL} reads: above the largest install bound
     * (1,000, {@code KEYRIGHT_IDEMPOTENCY_RECORDS_PER_INSTALL}) plus what one trim drops (100); IdempotencyRecordsTest
     * checks it against both. The bound is applied
     * to what it read, not in the query: a query's first result and maximum set per call make EclipseLink generate
     * its SQL again at every call, a fixed limit is part of the named query, prepared once.
     */
    public static final int INSTALL_READ_LIMIT = 1_200;
    public static final String FIND_NEWEST_OF_INSTALL = "IdempotencyRecord.findNewestOfInstall";
    public static final String FIND_NEWEST_OF_LICENSE = "IdempotencyRecord.findNewestOfLicense";

    @Id
    private String id;
    @Column(name = "license_id")
    private String licenseId;
    @Column(name = "idem_key")
    private String key;
    @Column(name = "client_instance_id")
    private String clientInstanceId;
    private String fingerprint;
    private int status;
    private String location;
    private String body;
    @Column(name = "created_at")
    private long createdAt;

    protected IdempotencyRecord() {
    }

    public IdempotencyRecord(IdempotencyClaim claim, String clientInstanceId, StoredResponse response, Instant createdAt) {
        this.id = claim.id();
        this.licenseId = claim.licenseId();
        this.key = claim.key();
        this.clientInstanceId = clientInstanceId;
        this.fingerprint = claim.fingerprint();
        this.status = response.status();
        this.location = response.location();
        this.body = response.body();
        this.createdAt = createdAt.toEpochMilli();
    }

    public boolean sameRequestAs(IdempotencyClaim claim) {
        return fingerprint.equals(claim.fingerprint());
    }

    public StoredResponse response() {
        return new StoredResponse(status, location, body);
    }

    public Instant createdAt() {
        return Instant.ofEpochMilli(createdAt);
    }
}
