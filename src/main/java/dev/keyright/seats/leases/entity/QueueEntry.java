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
 * One install waiting for a seat of one license. Its place is its {@code ticket}: taken under the license
 * lock, one more than the largest in the line, so the line is first come, first served on every node.
 * Waiting while {@link QueueKeep} says so.
 */
@Entity
@Table(name = "queue_entry")
@NamedQuery(name = QueueEntry.FIND_OF_LICENSE,
        query = "SELECT q FROM QueueEntry q WHERE q.licenseId = :licenseId ORDER BY q.ticket, q.id")
@NamedQuery(name = QueueEntry.FIND_ALL, query = "SELECT q FROM QueueEntry q ORDER BY q.licenseId, q.ticket, q.id")
@NamedQuery(name = QueueEntry.PLACES_OF_LICENSE,
        query = "SELECT q.id, q.holder.clientInstanceId, q.holder.user, q.holder.host, q.ticket, q.lastSeenAt"
                + " FROM QueueEntry q WHERE q.licenseId = :licenseId ORDER BY q.ticket, q.id")
@NamedQuery(name = QueueEntry.SEEN,
        query = "UPDATE QueueEntry q SET q.lastSeenAt = :now WHERE q.id = :id AND q.lastSeenAt < :now")
@NamedQuery(name = QueueEntry.DELETE_BY_IDS, query = "DELETE FROM QueueEntry q WHERE q.id IN :ids")
public class QueueEntry {

    public static final String FIND_OF_LICENSE = "QueueEntry.findOfLicense";
    public static final String FIND_ALL = "QueueEntry.findAll";
    /**
     * A license's line as values ({@link Place}), not entities: a checkout reads the whole line under the license lock,
     * and entities read in a transaction are each copied twice and compared field by field at its commit (weaving is
     * off): for a line of 100, that comparison alone was over a quarter of what the queue scenario allocated
     * (docs/BENCHMARK.md round 22).
     */
    public static final String PLACES_OF_LICENSE = "QueueEntry.placesOfLicense";
    /** A place kept: its install asked again, or its request is still held. */
    public static final String SEEN = "QueueEntry.seen";
    public static final String DELETE_BY_IDS = "QueueEntry.deleteByIds";

    @Id
    private String id;
    @Column(name = "license_id")
    private String licenseId;
    @Embedded
    private Holder holder;
    private long ticket;
    @Column(name = "joined_at")
    private long joinedAt;
    @Column(name = "last_seen_at")
    private long lastSeenAt;

    protected QueueEntry() {
    }

    public QueueEntry(String id, String licenseId, Holder holder, long ticket, Instant joinedAt) {
        this.id = id;
        this.licenseId = licenseId;
        this.holder = holder;
        this.ticket = ticket;
        this.joinedAt = joinedAt.toEpochMilli();
        this.lastSeenAt = joinedAt.toEpochMilli();
    }

    public boolean isWaitingAt(Instant now, Duration keep) {
        return QueueKeep.isWaiting(lastSeenAt(), now, keep);
    }

    public boolean isOf(String clientInstanceId) {
        return holder.clientInstanceId().equals(clientInstanceId);
    }

    public String id() { return id; }
    public String licenseId() { return licenseId; }
    public Holder holder() { return holder; }
    public long ticket() { return ticket; }
    public Instant joinedAt() { return Instant.ofEpochMilli(joinedAt); }
    public Instant lastSeenAt() { return Instant.ofEpochMilli(lastSeenAt); }

    /**
     * One place in a license's line as read ({@link #PLACES_OF_LICENSE}): a value, so that nothing written to it can
     * be silently lost; a place changes by statements of its own ({@link #SEEN}, {@link #DELETE_BY_IDS}).
     */
    public record Place(String id, Holder holder, long ticket, long lastSeenAtMillis) {

        /** A row of {@link #PLACES_OF_LICENSE}. */
        public static Place of(Object[] row) {
            return new Place((String) row[0], new Holder((String) row[1], (String) row[2], (String) row[3]),
                    ((Number) row[4]).longValue(), ((Number) row[5]).longValue());
        }

        public Instant lastSeenAt() {
            return Instant.ofEpochMilli(lastSeenAtMillis);
        }

        public boolean isWaitingAt(Instant now, Duration keep) {
            return QueueKeep.isWaiting(lastSeenAt(), now, keep);
        }

        /** The install asked again (or its request is still held): the same place, seen at {@code now} or later. */
        public Place seenAt(Instant now) {
            return new Place(id, holder, ticket, Math.max(lastSeenAtMillis, now.toEpochMilli()));
        }

        public boolean isOf(String clientInstanceId) {
            return holder.clientInstanceId().equals(clientInstanceId);
        }
    }
}
