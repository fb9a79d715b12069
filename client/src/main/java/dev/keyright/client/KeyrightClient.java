package dev.keyright.client;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A Keyright Seats client for one product and license key. Thread-safe; build one per process
 * with {@link #builder()}. Every lease it returns has a verified token.
 */
public final class KeyrightClient {

    private static final Logger LOG = Logger.getLogger(KeyrightClient.class.getName());

    private final SeatEndpoints endpoints;
    private final LeaseTokenVerifier verifier;
    private final String product;
    private final String clientInstanceId;
    private final Map<String, String> metadata;
    private final Ticker ticker;
    private final Jitter jitter;
    private final Scheduler scheduler;
    private final TransientRetry retry;
    private final SeatWait seatWait;

    KeyrightClient(SeatEndpoints endpoints, LeaseTokenVerifier verifier, String product, String clientInstanceId,
                   Map<String, String> metadata, Ticker ticker, Sleeper sleeper, Jitter jitter, Scheduler scheduler,
                   int acquireAttempts, Duration queueHold) {
        this.endpoints = endpoints;
        this.verifier = verifier;
        this.product = product;
        this.clientInstanceId = clientInstanceId;
        this.metadata = Map.copyOf(metadata);
        this.ticker = ticker;
        this.jitter = jitter;
        this.scheduler = scheduler;
        this.retry = new TransientRetry(acquireAttempts, sleeper, jitter);
        this.seatWait = new SeatWait(ticker, sleeper, jitter, queueHold);
    }

    public static KeyrightClientBuilder builder() {
        return new KeyrightClientBuilder();
    }

    /** Acquires a seat with the metadata given to the builder. */
    public Lease acquireSeat() {
        return acquireSeat(metadata);
    }

    /**
     * Acquires a seat: one logical acquire under one fresh {@code Idempotency-Key}, retried through
     * transient failures with that same key, so a lost answer never costs a second seat.
     *
     * @param metadata small display labels ({@code user}, {@code host}: at most 256 characters each)
     * @throws SeatsExhaustedException when the pool is full
     */
    public Lease acquireSeat(Map<String, String> metadata) {
        return acquire(metadata, Duration.ZERO);
    }

    /**
     * Acquires a seat, waiting in the license's queue while the pool is full, for the whole
     * {@code budget} (any length). Each attempt asks the server to hold it ({@code Prefer: wait=N},
     * N at most 60 s and never more than the budget left, rounded up); a refusal that gives the
     * install's place in the queue is re-sent at once, keeping that place. From a server that does not
     * queue, it tries again after {@code Retry-After} (plus jitter), cut short at the end of the budget
     * for one last attempt. {@code listener} is told of every refusal, with the place and the time waited.
     *
     * @throws SeatsExhaustedException the last refusal, when no seat was had within the budget; the
     *                                 install has then left the queue ({@code DELETE /v1/seats/queue/{id}})
     */
    public Lease acquireSeatWaiting(Duration budget, SeatWaitListener listener) {
        return seatWait.acquire(budget, new SeatQueue() {
            @Override
            public Lease acquire(Duration hold) {
                return KeyrightClient.this.acquire(metadata, hold);
            }

            @Override
            public void leave() {
                leaveQueueQuietly();
            }
        }, listener);
    }

    /** Renews the lease: the same lease id with a new token and expiry. */
    public Lease renewSeat(Lease lease) {
        return renewSeat(lease.leaseId());
    }

    /** Renews the lease of {@code leaseId}. */
    public Lease renewSeat(String leaseId) {
        long sentAt = ticker.nanos();
        return receive(endpoints.renew(leaseId), sentAt, leaseId);
    }

    /** Releases the seat at once. A lease the server no longer has counts as released. */
    public void releaseSeat(Lease lease) {
        releaseSeat(lease.leaseId());
    }

    /** Releases the seat of {@code leaseId} at once; a lease already gone counts as released. */
    public void releaseSeat(String leaseId) {
        endpoints.release(leaseId);
    }

    /**
     * Releases the seat of {@code leaseId} at once, and says whether it was still held: false when the lease had
     * already been released, had expired or was revoked (nothing to give back; the seat is free either way).
     */
    public boolean releaseSeatIfHeld(String leaseId) {
        return endpoints.release(leaseId);
    }

    /** The live pool of this license. */
    public SeatPool getSeatPool() {
        String body = endpoints.pool().body();
        try {
            return SeatPool.read(body);
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new KeyrightException("Unreadable seat pool from the server: " + e.getMessage(), e);
        }
    }

    /** Starts keeping {@code lease} alive; close the keep-alive to release the seat. */
    public SeatKeepAlive keepAlive(Lease lease, SeatStateListener listener) {
        return SeatKeepAlive.start(this, lease, listener);
    }

    public String product() {
        return product;
    }

    public String clientInstanceId() {
        return clientInstanceId;
    }

    Ticker ticker() {
        return ticker;
    }

    Jitter jitter() {
        return jitter;
    }

    Optional<Scheduler> scheduler() {
        return Optional.ofNullable(scheduler);
    }

    /**
     * One logical acquire under one fresh {@code Idempotency-Key}, retried through transient failures
     * with that same key; the server may hold it in the queue for up to {@code hold}.
     */
    private Lease acquire(Map<String, String> metadata, Duration hold) {
        String idempotencyKey = UUID.randomUUID().toString();
        long[] sentAt = new long[1];
        Transport.Response response = retry.call(() -> {
            sentAt[0] = ticker.nanos();
            return endpoints.acquire(clientInstanceId, metadata, idempotencyKey, hold);
        });
        return receive(response, sentAt[0], null);
    }

    /** Gives up this install's place in the queue; a failure only means the server drops it a little later. */
    private void leaveQueueQuietly() {
        try {
            endpoints.leaveQueue(clientInstanceId);
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "Could not leave the seat queue; the server drops a place not re-polled", e);
        }
    }

    /** Releases best-effort: for clean-up paths that must not fail. */
    void releaseQuietly(String leaseId) {
        try {
            endpoints.release(leaseId);
        } catch (KeyrightException e) {
            LOG.log(Level.FINE, "Could not release lease; it will expire on its own", e);
        }
    }

    private Lease receive(Transport.Response response, long sentAt, String expectedLeaseId) {
        Lease lease;
        try {
            lease = Lease.read(response.body(), sentAt);
        } catch (IllegalArgumentException | ArithmeticException e) {
            if (expectedLeaseId != null) releaseQuietly(expectedLeaseId);
            else readLeaseId(response.body()).ifPresent(this::releaseQuietly);
            throw new LeaseVerificationException("Unreadable lease from the server: " + e.getMessage(), e);
        }
        try {
            if (expectedLeaseId != null && !expectedLeaseId.equals(lease.leaseId())) {
                throw new LeaseVerificationException("Renewal answered for lease " + lease.leaseId(), null);
            }
            verifier.verify(lease.token(), lease.leaseId());
            return lease;
        } catch (LeaseVerificationException e) {
            releaseQuietly(lease.leaseId());
            if (expectedLeaseId != null && !expectedLeaseId.equals(lease.leaseId())) releaseQuietly(expectedLeaseId);
            throw e;
        }
    }

    private static Optional<String> readLeaseId(String body) {
        try {
            return JsonObject.parse(body).findString("leaseId");
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
