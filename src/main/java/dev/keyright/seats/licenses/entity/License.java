package dev.keyright.seats.licenses.entity;

import dev.keyright.seats.database.RowLocks;
import java.util.regex.Pattern;
import jakarta.persistence.Column;
import jakarta.persistence.Embedded;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.QueryHint;
import jakarta.persistence.Table;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** A license: a product, a number of seats, and the lease policy (TTL, skew) its seats are held under. */
@Entity
@Table(name = "license")
@NamedQuery(name = License.LOCK, query = "SELECT l FROM License l WHERE l.id = :id",
        hints = @QueryHint(name = RowLocks.LOCK_HINT, value = RowLocks.FOR_UPDATE))
@NamedQuery(name = License.FIND_BY_KEY_HASH, query = "SELECT l FROM License l WHERE l.keyHash = :keyHash")
@NamedQuery(name = License.FIND_ALL, query = "SELECT l FROM License l ORDER BY l.createdAt, l.id")
@NamedQuery(name = License.COUNT_ALL, query = "SELECT COUNT(l) FROM License l")
public class License {

    /** The row by its key, locked: for {@link RowLocks#lock}. */
    public static final String LOCK = "License.lock";
    public static final String FIND_BY_KEY_HASH = "License.findByKeyHash";
    public static final String FIND_ALL = "License.findAll";
    public static final String COUNT_ALL = "License.countAll";

    /** What a product name may be; {@link #PRODUCT_RULE} says it in words. */
    public static final String PRODUCT_PATTERN = "[A-Za-z0-9._-]{1,64}";
    public static final Pattern PRODUCT = Pattern.compile(PRODUCT_PATTERN);
    public static final int PRODUCT_MAX_LENGTH = 64;
    public static final String PRODUCT_RULE = "must be 1 to 64 characters of letters, digits, '.', '_' or '-'";

    public enum Status { ACTIVE, SUSPENDED }

    @Id
    private String id;
    private String product;
    @Column(name = "key_hash")
    private String keyHash;
    @Embedded
    private Policy policy;
    @Embedded
    private Sharing sharing;
    @Embedded
    private OfflineUse offline;
    private String status;
    private String customer;
    @Column(name = "not_after")
    private Long notAfter;
    @Column(name = "created_at")
    private long createdAt;
    private long checkouts;
    @Column(name = "last_checkout_at")
    private Long lastCheckoutAt;
    /** Whether an install of this license may be blocked: while clear, a checkout does not read install_block. */
    @Column(name = "may_have_blocks")
    private boolean mayHaveBlocks;
    /** Whether installs may be waiting for a seat of this license: while clear, a checkout does not read queue_entry. */
    @Column(name = "may_have_waiters")
    private boolean mayHaveWaiters;

    protected License() {
    }

    public License(String id, String product, String keyHash, Policy policy, String customer,
                   Instant notAfter, Instant createdAt) {
        this.id = id;
        this.product = product;
        this.keyHash = keyHash;
        this.policy = policy;
        this.sharing = Sharing.none();
        this.offline = OfflineUse.floating();
        this.status = Status.ACTIVE.name().toLowerCase();
        this.customer = customer;
        this.notAfter = notAfter == null ? null : notAfter.toEpochMilli();
        this.createdAt = createdAt.toEpochMilli();
    }

    /** Active, and not past its end date. */
    public boolean isUsableAt(Instant now) {
        return Status.ACTIVE == status() && (notAfter == null || now.toEpochMilli() <= notAfter);
    }

    /**
     * Writes the license row in the checkout transaction. On MariaDB Galera, FOR UPDATE locks are
     * node-local and only written rows are certified: this write makes a second node's racing
     * checkout fail certification instead of overselling.
     */
    public void recordCheckout(Instant now) {
        checkouts++;
        lastCheckoutAt = now.toEpochMilli();
    }

    /**
     * Whether the install_block table may hold a block of this license (see {@link #noteBlocks}). Read with the license
     * row locked, it is exact in one direction: clear means no install of this license is blocked.
     */
    public boolean mayHaveBlocks() {
        return mayHaveBlocks;
    }

    /**
     * Records whether blocks of this license may exist: set by whatever adds one, in its transaction and with this row
     * locked (so that a checkout clearing it at the same moment cannot leave it clear); cleared by a checkout that read
     * the license's blocks, with the row locked, and found none in force.
     */
    public void noteBlocks(boolean mayHave) {
        this.mayHaveBlocks = mayHave;
    }

    /** Whether queue_entry may hold an install waiting for this license's seats (see {@link #noteWaiters}). */
    public boolean mayHaveWaiters() {
        return mayHaveWaiters;
    }

    /**
     * Records whether installs may be waiting: set by the checkout that puts one in the queue, cleared by a checkout that
     * read the queue and found nobody waiting; both with this row locked, in the checkout's transaction.
     */
    public void noteWaiters(boolean mayHave) {
        this.mayHaveWaiters = mayHave;
    }

    public void apply(Policy policy) {
        this.policy = policy;
    }

    public void changeStatus(Status newStatus) {
        this.status = newStatus.name().toLowerCase();
    }

    public void apply(Sharing sharing) {
        this.sharing = sharing;
    }

    /** Fixes how the license is used offline; the model never changes after the license is issued. */
    public void apply(OfflineUse offline) {
        this.offline = offline;
    }

    public OfflineUse offline() {
        return offline == null ? OfflineUse.floating() : offline;
    }

    /** Refused ({@code 409 wrong-license-model}) unless the license is of {@code model}. */
    public void require(OfflineUse.Model model) {
        if (offline().model() != model) {
            throw new WrongLicenseModelException(offline().model());
        }
    }

    /**
     * The end of a seat borrowed at {@code now} for {@code hours}: {@code now + hours} rounded up to a whole second
     * (the precision of the signed {@code exp}), never past the license's end date.
     */
    public Instant borrowedUntil(Instant now, int hours) {
        Instant end = wholeSecondUp(now.plus(Duration.ofHours(hours)));
        return notAfter().filter(end::isAfter).orElse(end);
    }

    public Policy policy() {
        return policy;
    }

    public Sharing sharing() {
        return sharing == null ? Sharing.none() : sharing;
    }

    /**
     * The expiry a lease granted or renewed at {@code now} gets: {@code now + ttl}, rounded up to a whole
     * second (the precision of the signed {@code exp} and of {@code expiresAt}), so no lease is shorter than its TTL.
     */
    public Instant expiryFor(Instant now) {
        return wholeSecondUp(now.plusSeconds(policy.ttlSeconds()));
    }

    private static Instant wholeSecondUp(Instant exact) {
        Instant whole = Instant.ofEpochSecond(exact.getEpochSecond());
        return whole.equals(exact) ? whole : whole.plusSeconds(1);
    }

    /** A new key, for a leaked one: the old key stops opening this license at once. */
    public void replaceKey(String newKeyHash) {
        this.keyHash = newKeyHash;
    }

    public String id() { return id; }
    public String product() { return product; }
    public String keyHash() { return keyHash; }
    public int seats() { return policy.seats(); }
    public int ttlSeconds() { return policy.ttlSeconds(); }
    public Duration ttl() { return Duration.ofSeconds(policy.ttlSeconds()); }
    public Duration skew() { return Duration.ofSeconds(policy.skewSeconds()); }
    public Status status() { return Status.valueOf(status.toUpperCase()); }
    public Optional<String> customer() { return Optional.ofNullable(customer); }
    public Optional<Instant> notAfter() { return Optional.ofNullable(notAfter).map(Instant::ofEpochMilli); }
    public Instant createdAt() { return Instant.ofEpochMilli(createdAt); }
}
