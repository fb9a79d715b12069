package dev.keyright.seats.leases.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Embedded;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;
import java.time.Duration;
import java.time.Instant;

/**
 * One seat held by one install. Live while {@link Liveness} says so: there is no status flag to forget.
 * Only the server moves {@code expiresAt} forward ({@link #renew}); a release deletes the row.
 */
@Entity
@Table(name = "lease")
@NamedQuery(name = Lease.COUNT_LIVE,
        query = "SELECT COUNT(l) FROM Lease l WHERE l.licenseId = :licenseId AND l.expiresAt >= :oldestLiveExpiry")
@NamedQuery(name = Lease.EARLIEST_LIVE_EXPIRY,
        query = "SELECT MIN(l.expiresAt) FROM Lease l WHERE l.licenseId = :licenseId AND l.expiresAt >= :oldestLiveExpiry")
@NamedQuery(name = Lease.FIND_LIVE,
        query = "SELECT l FROM Lease l WHERE l.licenseId = :licenseId AND l.expiresAt >= :oldestLiveExpiry"
                + " ORDER BY l.acquiredAt, l.id")
@NamedQuery(name = Lease.FIND_MAYBE_LIVE,
        query = "SELECT l FROM Lease l WHERE l.expiresAt >= :oldestLiveExpiry ORDER BY l.acquiredAt, l.id")
@NamedQuery(name = Lease.FIND_BY_INSTALL,
        query = "SELECT l FROM Lease l WHERE l.licenseId = :licenseId AND l.holder.clientInstanceId = :clientInstanceId")
@NamedQuery(name = Lease.FIND_OF_LICENSE, query = "SELECT l FROM Lease l WHERE l.licenseId = :licenseId")
@NamedQuery(name = Lease.FIND_REAPABLE,
        query = "SELECT l FROM Lease l WHERE l.expiresAt < :reapableBefore ORDER BY l.expiresAt")
public class Lease {

    public static final String COUNT_LIVE = "Lease.countLive";
    public static final String EARLIEST_LIVE_EXPIRY = "Lease.earliestLiveExpiry";
    public static final String FIND_LIVE = "Lease.findLive";
    public static final String FIND_MAYBE_LIVE = "Lease.findMaybeLive";
    public static final String FIND_BY_INSTALL = "Lease.findByInstall";
    public static final String FIND_REAPABLE = "Lease.findReapable";
    public static final String FIND_OF_LICENSE = "Lease.findOfLicense";

    @Id
    private String id;
    @Column(name = "license_id")
    private String licenseId;
    @Embedded
    private Holder holder;
    @Column(name = "acquired_at")
    private long acquiredAt;
    @Column(name = "expires_at")
    private long expiresAt;

    protected Lease() {
    }

    public Lease(String id, String licenseId, Holder holder, Instant acquiredAt, Instant expiresAt) {
        this.id = id;
        this.licenseId = licenseId;
        this.holder = holder;
        this.acquiredAt = acquiredAt.toEpochMilli();
        this.expiresAt = expiresAt.toEpochMilli();
    }

    public boolean isLiveAt(Instant now, Duration skew) {
        return Liveness.isLive(expiresAt(), now, skew);
    }

    /** The server, and only the server, extends a lease: to the expiry it signs. */
    public void renew(Instant newExpiry) {
        this.expiresAt = newExpiry.toEpochMilli();
    }

    public boolean belongsTo(String license) {
        return licenseId.equals(license);
    }

    public String id() { return id; }
    public String licenseId() { return licenseId; }
    public Holder holder() { return holder; }
    public Instant acquiredAt() { return Instant.ofEpochMilli(acquiredAt); }
    public Instant expiresAt() { return Instant.ofEpochMilli(expiresAt); }
}
