package dev.keyright.seats.leases.entity;

import dev.keyright.seats.database.RowLocks;
import jakarta.persistence.Column;
import jakarta.persistence.Embedded;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.QueryHint;
import jakarta.persistence.Table;
import java.time.Duration;
import java.time.Instant;

/**
 * One seat held by one install. Live while {@link Liveness} says so: there is no status flag to forget.
 * Only the server moves {@code expiresAt} forward ({@link #renew}); a release deletes the row, or, when the
 * license lingers, ends the lease at the end of its linger ({@link #linger}) and marks it released.
 */
@Entity
@Table(name = "lease")
@NamedQuery(name = Lease.LOCK, query = "SELECT l FROM Lease l WHERE l.id = :id",
        hints = @QueryHint(name = RowLocks.LOCK_HINT, value = RowLocks.FOR_UPDATE))
@NamedQuery(name = Lease.COUNT_LIVE,
        query = "SELECT COUNT(l) FROM Lease l WHERE l.licenseId = :licenseId AND l.expiresAt >= :oldestLiveExpiry")
@NamedQuery(name = Lease.COUNT_LIVE_OF_USER,
        query = "SELECT COUNT(l) FROM Lease l WHERE l.licenseId = :licenseId AND l.expiresAt >= :oldestLiveExpiry"
                + " AND l.holder.user = :name")
@NamedQuery(name = Lease.COUNT_LIVE_OF_HOST,
        query = "SELECT COUNT(l) FROM Lease l WHERE l.licenseId = :licenseId AND l.expiresAt >= :oldestLiveExpiry"
                + " AND l.holder.host = :name")
@NamedQuery(name = Lease.COUNT_LIVE_OVERDRAFT,
        query = "SELECT COUNT(l) FROM Lease l WHERE l.licenseId = :licenseId AND l.expiresAt >= :oldestLiveExpiry"
                + " AND l.overdraft = TRUE")
@NamedQuery(name = Lease.COUNT_LIVE_BORROWED,
        query = "SELECT COUNT(l) FROM Lease l WHERE l.licenseId = :licenseId AND l.expiresAt >= :oldestLiveExpiry"
                + " AND l.borrowedAt IS NOT NULL")
@NamedQuery(name = Lease.FIND_LIVE_HOLDERS_NAMED,
        query = "SELECT l FROM Lease l WHERE l.licenseId = :licenseId AND l.expiresAt >= :oldestLiveExpiry"
                + " AND (l.holder.user IN :users OR l.holder.host IN :hosts)")
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

    /** The row by its key, locked: for {@link RowLocks#lock}. */
    public static final String LOCK = "Lease.lock";
    public static final String COUNT_LIVE = "Lease.countLive";
    public static final String COUNT_LIVE_OF_USER = "Lease.countLiveOfUser";
    public static final String COUNT_LIVE_OF_HOST = "Lease.countLiveOfHost";
    public static final String COUNT_LIVE_OVERDRAFT = "Lease.countLiveOverdraft";
    public static final String COUNT_LIVE_BORROWED = "Lease.countLiveBorrowed";
    public static final String FIND_LIVE_HOLDERS_NAMED = "Lease.findLiveHoldersNamed";
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
    private boolean overdraft;
    @Column(name = "released_at")
    private Long releasedAt;
    @Column(name = "borrowed_at")
    private Long borrowedAt;

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

    /**
     * The server, and only the server, extends a lease: to the expiry it signs. A borrowed lease keeps the end it
     * was borrowed until: a heartbeat neither shortens nor extends it.
     */
    public void renew(Instant newExpiry) {
        if (!isBorrowed()) {
            this.expiresAt = newExpiry.toEpochMilli();
        }
    }

    /**
     * The holder takes the seat off the network until {@code until}, which the server chose within the license's
     * limits. It is still just a lease, live by the one rule until then; borrowing it again never shortens it.
     */
    public void borrow(Instant now, Instant until) {
        if (!isBorrowed()) {
            this.borrowedAt = now.toEpochMilli();
        }
        this.expiresAt = Math.max(expiresAt, until.toEpochMilli());
    }

    public boolean isBorrowed() {
        return borrowedAt != null;
    }

    /** The end of a borrowed lease: its expiry. */
    public java.util.Optional<Instant> borrowedUntil() {
        return isBorrowed() ? java.util.Optional.of(expiresAt()) : java.util.Optional.empty();
    }

    /**
     * {@link #renew} as the one statement a heartbeat runs (no transaction, no lock taken first): the lease row
     * of this id and license gets the expiry the server signs, if it is held (not released) and live by the one
     * rule, {@code expires_at >= }{@link Liveness#oldestLiveExpiry}, and not borrowed ({@link #renew}). Parameters, all epoch milliseconds but the
     * ids: the new expiry, the lease id, the license id, the oldest live expiry. One row changed: renewed; none:
     * not renewable, and the caller reads the row to say why.
     */
    public static final String RENEW_IF_HELD_AND_LIVE = "UPDATE lease SET expires_at = ? WHERE id = ? AND license_id = ?"
            + " AND released_at IS NULL AND borrowed_at IS NULL AND expires_at >= ?";

    /** This lease as {@link #RENEW_IF_HELD_AND_LIVE} left it: the same holder, the new expiry (a copy, never managed). */
    public Lease renewedTo(Instant newExpiry) {
        Lease copy = new Lease(id, licenseId, holder, acquiredAt(), newExpiry);
        copy.overdraft = overdraft;
        copy.borrowedAt = borrowedAt;
        return copy;
    }

    /** Granted beyond the license's seats, out of its overdraft (billed: shown in the usage report). */
    public void markOverdraft() {
        this.overdraft = true;
    }

    /**
     * The holder released a seat that lingers: it stays live (the one rule) until {@code lingerUntil}, for
     * this install to take back, and is not renewed. The server sets the new end; the client only asked to leave.
     */
    public void linger(Instant releasedAt, Instant lingerUntil) {
        this.releasedAt = releasedAt.toEpochMilli();
        this.expiresAt = lingerUntil.toEpochMilli();
    }

    /** The same install took its lingering seat back: held again, renewed like any lease. */
    public void resume(Instant newExpiry) {
        this.releasedAt = null;
        renew(newExpiry);
    }

    public boolean isReleased() {
        return releasedAt != null;
    }

    public boolean belongsTo(String license) {
        return licenseId.equals(license);
    }

    public String id() { return id; }
    public String licenseId() { return licenseId; }
    public Holder holder() { return holder; }
    public Instant acquiredAt() { return Instant.ofEpochMilli(acquiredAt); }
    public Instant expiresAt() { return Instant.ofEpochMilli(expiresAt); }
    public boolean overdraft() { return overdraft; }
    public java.util.Optional<Instant> releasedAt() { return java.util.Optional.ofNullable(releasedAt).map(Instant::ofEpochMilli); }
}
