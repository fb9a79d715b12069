package dev.keyright.seats.leases.entity;

import dev.keyright.seats.database.Ids;
import jakarta.persistence.Column;
import jakarta.persistence.Embedded;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * What happened to a seat: the usage history, and the tombstone that tells a renew of a released,
 * reaped or revoked lease (410) from a renew of a lease that never existed here (404).
 */
@Entity
@Table(name = "lease_event")
@NamedQuery(name = LeaseEvent.COUNT_ENDINGS,
        query = "SELECT COUNT(e) FROM LeaseEvent e WHERE e.leaseId = :leaseId AND e.licenseId = :licenseId"
                + " AND e.kind IN ('RELEASE', 'RETURN', 'EXPIRE', 'REVOKE')")
@NamedQuery(name = LeaseEvent.MARK_GRANT_ENDED,
        query = "UPDATE LeaseEvent e SET e.endedAt = :endedAt WHERE e.leaseId = :leaseId AND e.kind = 'GRANT'")
@NamedQuery(name = LeaseEvent.REOPEN_GRANT,
        query = "UPDATE LeaseEvent e SET e.endedAt = NULL WHERE e.leaseId = :leaseId AND e.kind = 'GRANT'")
@NamedQuery(name = LeaseEvent.FIND_GRANTS_OVERLAPPING,
        query = "SELECT e FROM LeaseEvent e WHERE e.licenseId = :licenseId AND e.kind = 'GRANT' AND e.at < :to"
                + " AND (e.endedAt IS NULL OR e.endedAt >= :from)")
@NamedQuery(name = LeaseEvent.FIND_IN_WINDOW,
        query = "SELECT e FROM LeaseEvent e WHERE e.licenseId = :licenseId AND e.at >= :from AND e.at < :to")
@NamedQuery(name = LeaseEvent.FIND_OLDER_THAN,
        query = "SELECT e.id FROM LeaseEvent e WHERE e.at < :before ORDER BY e.at")
@NamedQuery(name = LeaseEvent.DELETE_BY_IDS, query = "DELETE FROM LeaseEvent e WHERE e.id IN :ids")
public class LeaseEvent {

    public static final String COUNT_ENDINGS = "LeaseEvent.countEndings";
    public static final String MARK_GRANT_ENDED = "LeaseEvent.markGrantEnded";
    public static final String REOPEN_GRANT = "LeaseEvent.reopenGrant";
    public static final String FIND_GRANTS_OVERLAPPING = "LeaseEvent.findGrantsOverlapping";
    public static final String FIND_IN_WINDOW = "LeaseEvent.findInWindow";
    public static final String FIND_OLDER_THAN = "LeaseEvent.findOlderThan";
    public static final String DELETE_BY_IDS = "LeaseEvent.deleteByIds";

    /** {@code BORROW}: the seat left the network; {@code RETURN}: a borrowed seat released (given back early). */
    public enum Kind { GRANT, RELEASE, EXPIRE, REVOKE, DENY, BORROW, RETURN }

    @Id
    private String id;
    @Column(name = "license_id")
    private String licenseId;
    @Column(name = "lease_id")
    private String leaseId;
    private String kind;
    @Column(name = "at_millis")
    private long at;
    @Embedded
    private Holder holder;
    @Column(name = "ended_at")
    private Long endedAt;
    /** Why a checkout was refused ({@link #denial}) or a seat revoked: a problem type slug or "block". */
    private String reason;
    private boolean overdraft;

    protected LeaseEvent() {
    }

    private LeaseEvent(Kind kind, String licenseId, String leaseId, Holder holder, Instant at) {
        this.id = Ids.event();
        this.kind = kind.name();
        this.licenseId = licenseId;
        this.leaseId = leaseId;
        this.at = at.toEpochMilli();
        this.holder = holder;
    }

    public static LeaseEvent of(Kind kind, Lease lease, Instant at) {
        LeaseEvent event = new LeaseEvent(kind, lease.licenseId(), lease.id(), lease.holder(), at);
        event.overdraft = lease.overdraft();
        return event;
    }

    /** A revocation that also blocked the install. */
    public static LeaseEvent blockingRevoke(Lease lease, Instant at) {
        LeaseEvent event = of(Kind.REVOKE, lease, at);
        event.reason = "block";
        return event;
    }

    /** A refused checkout, with the problem type that said why ({@code seats-exhausted}, {@code user-limit-reached}, ...). */
    public static LeaseEvent denial(String licenseId, Holder holder, Instant at, String reason) {
        LeaseEvent event = new LeaseEvent(Kind.DENY, licenseId, null, holder, at);
        event.reason = reason;
        return event;
    }

    /** An expiry is dated when the hold ended, at the lease's last signed expiry, not when the reaper noticed. */
    public static LeaseEvent expiry(Lease lease) {
        return new LeaseEvent(Kind.EXPIRE, lease.licenseId(), lease.id(), lease.holder(), lease.expiresAt());
    }

    public Kind kind() { return Kind.valueOf(kind); }
    public java.util.Optional<String> reason() { return java.util.Optional.ofNullable(reason); }
    public boolean overdraft() { return overdraft; }
    public Holder holder() { return holder; }
    public java.util.Optional<Instant> endedAt() { return java.util.Optional.ofNullable(endedAt).map(Instant::ofEpochMilli); }
    public String leaseId() { return leaseId; }
    public Instant at() { return Instant.ofEpochMilli(at); }
}
