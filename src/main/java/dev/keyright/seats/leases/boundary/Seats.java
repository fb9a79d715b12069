package dev.keyright.seats.leases.boundary;

import dev.keyright.seats.configuration.KeyrightConfig;
import dev.keyright.seats.database.DeadlockRetry;
import dev.keyright.seats.database.Faults;
import dev.keyright.seats.database.Ids;
import dev.keyright.seats.database.LostConflict;
import dev.keyright.seats.database.RowLocks;
import dev.keyright.seats.idempotency.boundary.IdempotencyClaims;
import dev.keyright.seats.idempotency.boundary.IdempotencyRecords;
import dev.keyright.seats.idempotency.entity.IdempotencyClaim;
import dev.keyright.seats.idempotency.entity.StoredResponse;
import dev.keyright.seats.leases.control.CurrentKeys;
import dev.keyright.seats.leases.control.Heartbeats;
import dev.keyright.seats.leases.control.History;
import dev.keyright.seats.leases.control.KnownLeases;
import dev.keyright.seats.leases.control.LeaseSigner;
import dev.keyright.seats.leases.control.LiveLeases;
import dev.keyright.seats.leases.control.RecentCounts;
import dev.keyright.seats.leases.control.SeatQueue;
import dev.keyright.seats.leases.entity.BorrowingNotAllowedException;
import dev.keyright.seats.leases.entity.Holder;
import dev.keyright.seats.leases.entity.Lease;
import dev.keyright.seats.leases.entity.LeaseEvent;
import dev.keyright.seats.leases.entity.LeaseExpiredException;
import dev.keyright.seats.leases.entity.LeaseNotFoundException;
import dev.keyright.seats.leases.entity.SeatEvent;
import dev.keyright.seats.leases.entity.SeatRefusal;
import dev.keyright.seats.licenses.boundary.LicenseAuthentication;
import dev.keyright.seats.licenses.entity.License;
import dev.keyright.seats.licenses.entity.OfflineUse;
import dev.keyright.seats.licenses.entity.LicenseSuspendedException;
import dev.keyright.seats.problems.InvalidRequestException;
import dev.keyright.seats.problems.ServiceUnavailableException;
import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The seat lifecycle: checkout, heartbeat (renew), release, revoke. The transaction boundary of every
 * seat operation except checkout, which runs in {@link Checkout} so that a deadlock can be retried here,
 * outside the failed transaction. The pool views are {@link Pools}.
 */
@Stateless
public class Seats {

    @PersistenceContext
    EntityManager em;
    @Inject
    History history;
    @Inject
    LiveLeases liveLeases;
    @Inject
    LicenseAuthentication authentication;
    @EJB
    Checkout checkout;
    @EJB
    Endings endings;
    @EJB
    IdempotencyRecords records;
    @Inject
    CurrentKeys currentKeys;
    @Inject
    KeyrightConfig config;
    @Inject
    Clock clock;
    @Inject
    Event<SeatEvent> seatEvents;
    @Inject
    RecentCounts recentCounts;
    @Inject
    SeatQueue queue;
    @Inject
    KnownLeases knownLeases;
    @Inject
    Heartbeats heartbeats;

    /** Acquire a seat: 201 new, 200 the same install's live lease, 409 full, 503 lock busy. */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public Grant acquire(AcquireRequest request, IdempotencyClaims claims, Function<Grant, StoredResponse> answers) {
        return acquire(request, claims, answers, false);
    }

    /**
     * Acquire a seat; with {@code mayWait}, an install that cannot have one now keeps its place in the queue
     * instead of being refused ({@link Grant.Kind#QUEUED}), and its request is held by the {@link WaitingRoom}.
     */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public Grant acquire(AcquireRequest request, IdempotencyClaims claims, Function<Grant, StoredResponse> answers,
                         boolean mayWait) {
        License license = authentication.authenticate(request.product(), request.licenseKey());
        license.require(OfflineUse.Model.FLOATING);
        IdempotencyClaim claim = claims.claimFor(license.id());
        Instant now = clock.instant();
        if (!license.isUsableAt(now)) {
            throw new LicenseSuspendedException();
        }
        String leaseId = Ids.lease();
        Instant expiresAt = license.expiryFor(now);
        Lease draft = new Lease(leaseId, license.id(), request.holder(), now, expiresAt);
        Checkout.PreparedLease prepared = new Checkout.PreparedLease(leaseId, now, expiresAt,
                currentKeys.signer().sign(LeaseSigner.LeaseClaims.of(license, draft, now)));
        Supplier<ServiceUnavailableException> busy = () -> ServiceUnavailableException.licenseBusy("granted");
        Grant grant;
        try {
            grant = DeadlockRetry.run(config.deadlockRetries(),
                    () -> quickThenCareful(license, request, prepared, claim, answers, mayWait), busy);
        } catch (SeatRefusal refusal) {
            checkout.recordDenial(license.id(), request.holder(), now, refusal.type());
            seatEvents.fire(SeatEvent.denied(license.id(), refusal.type()));
            throw refusal;
        }
        if (grant.answerStored()) {
            records.keepWithinBounds(claim, request.holder().clientInstanceId()); // committed, unlocked
        }
        if (grant.kind() == Grant.Kind.NEW) {
            seatEvents.fire(SeatEvent.granted(license.id(), license.product(), grant.seatsInUse(), grant.maxSeats(),
                    grant.overdraft()));
        } else if (grant.kind() == Grant.Kind.RETURNING) {
            seatEvents.fire(SeatEvent.of(SeatEvent.Kind.RENEWED, license.id()));
        }
        return grant;
    }

    /**
     * The quick pass, and the careful one when the quick pass met a unique key: an earlier answer stored under
     * the Idempotency-Key, or a lease the install holds (see {@link Checkout}). The quick pass rolled back.
     */
    private Grant quickThenCareful(License license, AcquireRequest request, Checkout.PreparedLease prepared,
                                   IdempotencyClaim claim, Function<Grant, StoredResponse> answers, boolean mayWait) {
        try {
            return checkout.checkout(license.id(), request.holder(), prepared, claim, answers, mayWait,
                    Checkout.Pass.QUICK);
        } catch (LostConflict conflict) {
            if (!Faults.isDuplicateKey(conflict)) {
                throw conflict;
            }
            return checkout.checkout(license.id(), request.holder(), prepared, claim, answers, mayWait,
                    Checkout.Pass.CAREFUL);
        }
    }

    /**
     * One pass over a license's queue for the installs held on this node (see {@link Checkout#serve}). A busy
     * license lock is no answer: the pass is skipped (empty), and the next one comes within a tick.
     */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public Optional<Turns> serveQueue(String licenseId, List<Waiter> heldHere) {
        Instant now = clock.instant();
        Turns turns;
        try {
            turns = checkout.serve(licenseId, heldHere, now);
        } catch (ServiceUnavailableException busy) {
            return Optional.empty();
        } catch (EJBException | jakarta.persistence.PersistenceException e) {
            if (Faults.isDeadlock(e) || Faults.isLockTimeout(e)) {
                return Optional.empty();
            }
            throw e;
        }
        for (Waiter waiter : heldHere) {
            Grant grant = turns.granted().get(waiter.holder().clientInstanceId());
            if (grant != null && grant.answerStored()) {
                records.keepWithinBounds(waiter.claim(), waiter.holder().clientInstanceId());
            }
        }
        turns.granted().values().forEach(grant ->
                seatEvents.fire(SeatEvent.granted(licenseId, turns.product(), grant.seatsInUse(), grant.maxSeats(),
                        grant.overdraft())));
        return Optional.of(turns);
    }

    /** A held request ran out of time: a refusal, recorded in the usage history like any other. */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void waitEnded(String licenseId, Holder holder) {
        String reason = "seats-exhausted";
        checkout.recordDenial(licenseId, holder, clock.instant(), reason);
        seatEvents.fire(SeatEvent.denied(licenseId, reason));
    }

    /** The install gives up waiting: it leaves the license's queue at once (nothing to leave is no error). */
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public String leaveQueue(String licenseKey, String clientInstanceId) {
        License license = authentication.authenticate(null, licenseKey);
        license.require(OfflineUse.Model.FLOATING);
        RowLocks.lock(em, License.LOCK, License.class, license.id());
        Instant now = clock.instant();
        queue.leave(queue.line(license.id(), now), clientInstanceId);
        return license.id();
    }

    /**
     * Heartbeat: one statement on the lease row ({@link Lease#RENEW_IF_HELD_AND_LIVE}, in auto-commit: no
     * transaction, no lock taken first), never counts, never touches the license row. The license is this
     * node's copy of the last second ({@link LicenseAuthentication#authenticateRecent}) and the lease's fixed facts are
     * this node's memory of it ({@link KnownLeases}); whether the lease is held and live is decided by the
     * statement, on the row. When it changes nothing, the row is read to say why (410 or 404), or, for a
     * borrowed lease, to answer it as it is: its end is the one it was borrowed until, never moved by a heartbeat.
     */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public Grant renew(String licenseKey, String leaseId) {
        License license = authentication.authenticateRecent(licenseKey);
        license.require(OfflineUse.Model.FLOATING);
        Instant now = clock.instant();
        if (!license.isUsableAt(now)) {
            throw new LicenseSuspendedException();
        }
        Lease known = knownLeases.find(leaseId).filter(l -> l.belongsTo(license.id()))
                .orElseGet(() -> renewable(leaseId, license, now));
        Instant newExpiry = license.expiryFor(now);
        Lease lease;
        if (known.isBorrowed() || !heartbeats.renewIfHeldAndLive(known, newExpiry, now, license.skew())) {
            knownLeases.forget(leaseId);
            lease = renewable(leaseId, license, now); // says why: 404 or 410
            if (!lease.isBorrowed()) {
                throw new LeaseExpiredException(); // held and live when read, ended since
            }
        } else {
            lease = known.renewedTo(newExpiry);
        }
        seatEvents.fire(SeatEvent.of(SeatEvent.Kind.RENEWED, license.id()));
        String token = currentKeys.signer().sign(LeaseSigner.LeaseClaims.of(license, lease, now));
        long inUse = recentCounts.seatsInUse(license.id(), now, () -> liveLeases.count(license, now));
        return Grant.of(Grant.Kind.RENEWED, leaseId, LeaseBody.json(lease, token, license, inUse), inUse, license.seats());
    }

    /**
     * The lease as its row is now, when a heartbeat may renew it (held, live, of this license); remembered for
     * the next one. Otherwise 410 when it ended here (released, expired, revoked) and 404 when it never existed
     * for this license.
     */
    private Lease renewable(String leaseId, License license, Instant now) {
        Lease lease = held(em.find(Lease.class, leaseId), leaseId, license, now);
        knownLeases.remember(lease);
        return lease;
    }

    /** {@code row} (the row of {@code leaseId}) when it is held and live for this license; else 410 or 404. */
    private Lease held(Lease row, String leaseId, License license, Instant now) {
        Lease lease = existing(row, leaseId, license);
        if (!lease.isLiveAt(now, license.skew()) || lease.isReleased()) {
            throw new LeaseExpiredException(); // a released seat that lingers is kept for a new acquire, not renewed
        }
        return lease;
    }

    /**
     * Borrow: the holder takes its live seat off the network for {@code hours} (1 to the license's
     * {@code maxBorrowHours}, 0 being "borrowing off": 403). The lease then ends at {@code now + hours} (never past
     * the license's end, never earlier than it already did); it stays just a lease, counted by the one rule until
     * then, and renew no longer moves it. 404/410 as for renew. The token says {@code bor: true}.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public Grant borrow(String licenseKey, String leaseId, int hours) {
        License license = authentication.authenticate(null, licenseKey);
        license.require(OfflineUse.Model.FLOATING);
        Instant now = clock.instant();
        if (!license.isUsableAt(now)) {
            throw new LicenseSuspendedException();
        }
        int maxHours = license.offline().maxBorrowHours();
        if (!license.offline().lendsSeats()) {
            throw new BorrowingNotAllowedException();
        }
        if (hours < 1 || hours > maxHours) {
            throw new InvalidRequestException("hours", "must be a whole number of hours from 1 to " + maxHours
                    + " (the license's maxBorrowHours)");
        }
        Lease lease = held(RowLocks.lock(em, Lease.LOCK, Lease.class, leaseId), leaseId, license, now);
        lease.borrow(now, license.borrowedUntil(now, hours));
        knownLeases.forget(leaseId);
        history.borrowed(lease, now);
        String token = currentKeys.signer().sign(LeaseSigner.LeaseClaims.of(license, lease, now));
        long inUse = liveLeases.count(license, now);
        return Grant.of(Grant.Kind.RENEWED, leaseId, LeaseBody.json(lease, token, license, inUse), inUse, license.seats());
    }

    /**
     * A live lease of this license, for its holder ({@code Location} of a new seat): 410 when it ended here
     * (released, expired, revoked), 404 when it never existed for this license. Locks nothing.
     */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public String lease(String licenseKey, String leaseId) {
        License license = authentication.authenticate(null, licenseKey);
        Instant now = clock.instant();
        Lease lease = existing(em.find(Lease.class, leaseId), leaseId, license);
        if (!lease.isLiveAt(now, license.skew())) {
            throw new LeaseExpiredException();
        }
        return LeaseBody.view(lease, license);
    }

    /**
     * Give a seat back now. 404 when there is no live lease of that id for this license (or it was released
     * already); a lingering seat stays counted for its install until the linger ends ({@link Endings#release}). The
     * license is this node's copy of the last second, as for a heartbeat
     * ({@link LicenseAuthentication#authenticateRecent}). A release the database chose as a deadlock victim runs
     * again, as a checkout does; past the bounds of {@link DeadlockRetry}, 503 with nothing released.
     */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void release(String licenseKey, String leaseId) {
        License license = authentication.authenticateRecent(licenseKey);
        license.require(OfflineUse.Model.FLOATING);
        DeadlockRetry.run(config.deadlockRetries(), () -> endings.release(license, leaseId),
                () -> ServiceUnavailableException.licenseBusy("released"));
        seatEvents.fire(SeatEvent.of(SeatEvent.Kind.RELEASED, license.id())); // committed: told once
    }

    /**
     * An administrator takes a seat back now; that client's next renew gets 410. With {@code blockSeconds > 0},
     * its install is also refused (403 install-blocked) for that long on every node: a revoke that sticks. Run again
     * after a deadlock, as a release is.
     */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void revoke(String licenseId, String leaseId, int blockSeconds) {
        DeadlockRetry.run(config.deadlockRetries(), () -> endings.revoke(licenseId, leaseId, blockSeconds),
                () -> ServiceUnavailableException.licenseBusy("revoked"));
        seatEvents.fire(SeatEvent.of(SeatEvent.Kind.REVOKED, licenseId));
    }

    /**
     * {@code lease} (the row of {@code leaseId}, live or not) when it is this license's; else 410 when a lease of
     * that id ended here (released, expired, revoked: its row is gone, its ending recorded) and 404 when it never
     * existed for this license.
     */
    private Lease existing(Lease lease, String leaseId, License license) {
        if (lease == null || !lease.belongsTo(license.id())) {
            if (lease == null && endedHere(leaseId, license.id())) {
                throw new LeaseExpiredException();
            }
            throw new LeaseNotFoundException();
        }
        return lease;
    }

    private boolean endedHere(String leaseId, String licenseId) {
        return em.createNamedQuery(LeaseEvent.COUNT_ENDINGS, Long.class)
                .setParameter("leaseId", leaseId)
                .setParameter("licenseId", licenseId)
                .getSingleResult() > 0;
    }
}
