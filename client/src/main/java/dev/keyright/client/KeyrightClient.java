package dev.keyright.client;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.IntConsumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A Keyright Seats client for one product and license key. Thread-safe; build one per process
 * with {@link #builder()}. Every lease it returns has a verified token, and so has every borrowed seat and
 * activation certificate, which it also keeps in the offline store for use without the server.
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
    private final OfflineLicense offline;
    private final SeatBorrowing borrowing;
    private final Activations activations;
    private final Clock clock;

    KeyrightClient(SeatEndpoints endpoints, LeaseTokenVerifier verifier, String product, String clientInstanceId,
                   Map<String, String> metadata, Ticker ticker, Sleeper sleeper, Jitter jitter, Scheduler scheduler,
                   int acquireAttempts, Duration queueHold, OfflineLicense offline, Clock clock) {
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
        this.offline = offline;
        this.clock = clock;
        this.borrowing = new SeatBorrowing(endpoints, offline);
        this.activations = new Activations(endpoints, offline, retry, this.metadata);
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

    /**
     * Takes a seat for use away from the network for {@code duration}: acquires one (this install's own live
     * lease, when it holds one: a seat borrowed here already is borrowed on, never shortened), then
     * {@link #borrowSeat borrows} it. When the borrow is refused, a seat acquired for it is released again, so a
     * failed borrow leaves nothing taken; a seat the install held before is left as it was.
     *
     * @throws IllegalArgumentException under 1 hour or over 720 hours, before anything is acquired
     */
    public BorrowedSeat borrow(Duration duration) {
        SeatBorrowing.hours(duration);
        boolean[] granted = new boolean[1];
        Lease lease = acquire(metadata, Duration.ZERO, status -> granted[0] = status == 201);
        try {
            return borrowSeat(lease, duration);
        } catch (KeyrightException e) {
            if (granted[0]) releaseQuietly(lease.leaseId()); // a 200 is the install's own seat, held before: left alone
            throw e;
        }
    }

    /**
     * Borrows a held seat for {@code duration}, in whole hours rounded up ({@code POST /v1/seats/{id}/borrow}):
     * the server extends the lease to {@code borrowedUntil} and signs a token with {@code bor: true}. The token is
     * verified with the JWKS fetched now, and kept with that JWKS in the offline store, where
     * {@link #checkBorrowedSeat()} finds it without the network. A borrow never shortens a lease borrowed
     * already, so asking again after a lost answer is safe. A token this machine could not use (it fails
     * verification, or this machine's clock is behind the server's) is not kept and its seat is released.
     *
     * @throws BorrowingNotAllowedException the license does not allow borrowing
     * @throws InvalidRequestException      more hours than the license's {@code maxBorrowHours}
     * @throws IllegalArgumentException     under 1 hour or over 720 hours (the contract's largest maximum)
     */
    public BorrowedSeat borrowSeat(Lease lease, Duration duration) {
        return borrowing.borrow(lease, duration);
    }

    /**
     * Checks the borrowed seat with no network at all: see {@link OfflineLicense#checkBorrowedSeat()}.
     * Call it at start-up and whenever the app would otherwise renew a lease.
     */
    public BorrowedSeat checkBorrowedSeat() {
        return offline.checkBorrowedSeat();
    }

    /**
     * Returns the borrowed seat early, once back on the network: releases its lease (one the server no longer
     * holds, expired or revoked, counts as returned) and deletes it from the offline store. Without the network
     * it throws {@link TransientException} and keeps the store: the seat is still borrowed.
     *
     * @return false when no seat is borrowed here
     */
    public boolean returnBorrowed() {
        return borrowing.giveBack();
    }

    /** Activates this machine under its default fingerprint, {@link MachineFingerprint} (or the builder's). */
    public Activation activate() {
        return activations.activate(offline.machineFingerprint());
    }

    /**
     * Activates a machine of a node-locked license ({@code POST /v1/activations}, under one fresh
     * {@code Idempotency-Key} reused through transient retries): a new activation, or this fingerprint's own
     * with a fresh certificate. The certificate is verified with the JWKS fetched now and kept with it in the
     * offline store. One that fails verification, or that this machine's clock could not use yet, is not kept,
     * but its slot stays this machine's: activating again gets the same activation back, so nothing is
     * deactivated behind the caller's back. {@link #checkActivation()} compares certificates with the builder's
     * {@code machineFingerprint} (by default {@link MachineFingerprint}): activate under another fingerprint only
     * when the builder is given the same one.
     *
     * @param fingerprint 16..128 characters of {@code [A-Za-z0-9._:-]}
     * @throws ActivationsExhaustedException every activation of the license is taken
     * @throws WrongLicenseModelException    the license is for floating seats
     */
    public Activation activate(String fingerprint) {
        return activations.activate(fingerprint);
    }

    /**
     * Fetches a new certificate for the stored activation ({@code POST /v1/activations/{id}/refresh}) and keeps
     * it. {@link ActivationKeeper} calls this at {@code revalidateAfter}.
     *
     * @throws ActivationEndedException        deactivated or revoked: the stored certificate is deleted
     * @throws ActivationNotFoundException     unknown to the server: the stored certificate is deleted
     * @throws OfflineLicenseNotFoundException this machine holds no activation
     */
    public Activation refreshActivation() {
        return activations.refresh();
    }

    /**
     * Deactivates this machine ({@code DELETE /v1/activations/{id}}): its slot is free at once and the stored
     * certificate deleted. An activation that already ended counts as deactivated. Without the network it
     * throws {@link TransientException} and keeps the certificate.
     *
     * @return false when this machine holds no activation
     */
    public boolean deactivate() {
        return activations.deactivate();
    }

    /**
     * Checks the activation with no network at all: see {@link OfflineLicense#checkActivation()}. Call it at
     * start-up; a machine that is online keeps its certificate fresh with {@link #keepActivated}.
     */
    public Activation checkActivation() {
        return offline.checkActivation();
    }

    /** Starts refreshing {@code activation}'s certificate in the background; close the keeper to stop. */
    public ActivationKeeper keepActivated(Activation activation, ActivationListener listener) {
        return ActivationKeeper.start(this, activation, listener);
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

    Clock clock() {
        return clock;
    }

    Optional<Scheduler> scheduler() {
        return Optional.ofNullable(scheduler);
    }

    /**
     * One logical acquire under one fresh {@code Idempotency-Key}, retried through transient failures
     * with that same key; the server may hold it in the queue for up to {@code hold}.
     */
    private Lease acquire(Map<String, String> metadata, Duration hold) {
        return acquire(metadata, hold, status -> { });
    }

    /** @param status told the answer's status: 201 a new seat, 200 the install's own */
    private Lease acquire(Map<String, String> metadata, Duration hold, IntConsumer status) {
        String idempotencyKey = UUID.randomUUID().toString();
        long[] sentAt = new long[1];
        Transport.Response response = retry.call(() -> {
            sentAt[0] = ticker.nanos();
            return endpoints.acquire(clientInstanceId, metadata, idempotencyKey, hold);
        });
        status.accept(response.status());
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
