package dev.keyright.seats.leases.boundary;

import dev.keyright.seats.database.Ids;
import dev.keyright.seats.idempotency.boundary.IdempotencyRecords;
import dev.keyright.seats.idempotency.entity.IdempotencyClaim;
import dev.keyright.seats.idempotency.entity.IdempotencyKeyReusedException;
import dev.keyright.seats.idempotency.entity.IdempotencyRecord;
import dev.keyright.seats.idempotency.entity.StoredResponse;
import dev.keyright.seats.leases.control.History;
import dev.keyright.seats.leases.control.LeaseSigner;
import dev.keyright.seats.leases.control.LiveLeases;
import dev.keyright.seats.leases.control.SeatQueue;
import dev.keyright.seats.leases.entity.Holder;
import dev.keyright.seats.leases.entity.Lease;
import dev.keyright.seats.leases.entity.LeaseEvent;
import dev.keyright.seats.leases.entity.QueueEntry;
import dev.keyright.seats.leases.entity.SeatsExhaustedException;
import dev.keyright.seats.licenses.entity.InvalidLicenseException;
import dev.keyright.seats.licenses.entity.License;
import dev.keyright.seats.licenses.entity.LicenseSuspendedException;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The checkout transaction, the only serialized operation, in the order that keeps the count honest:
 * <ol>
 * <li>lock the license row ({@code SELECT ... FOR UPDATE}); nothing is read before it;</li>
 * <li>replay a response already committed under this Idempotency-Key;</li>
 * <li>give an install that already holds a live seat the same lease, renewed;</li>
 * <li>count live leases with the one liveness rule and read the queue: a seat is free for this install only
 * when more seats are free than installs wait ahead of it; refuse, or keep its place in the queue;</li>
 * <li>insert the lease, write the license row, store the idempotency record: one commit.</li>
 * </ol>
 * The token was signed before the lock (see {@link Seats}); a returning install's renewal and a seat handed to
 * a waiting install ({@link #serve}) sign inside it.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRED)
public class Checkout {

    @PersistenceContext
    EntityManager em;
    @Inject
    History history;
    @Inject
    LiveLeases liveLeases;
    @Inject
    SigningKeys signingKeys;
    @EJB
    IdempotencyRecords records;
    @Inject
    SeatQueue queue;

    /**
     * @param answers how the caller answers a grant; with a claim, that answer is stored in this transaction,
     *                so that a retry under the same Idempotency-Key replays it exactly
     * @param mayWait the request may be held ({@code Prefer: wait}): instead of a refusal, the install keeps its
     *                place in the queue, and the grant says which ({@link Grant.Kind#QUEUED})
     */
    public Grant checkout(String licenseId, Holder holder, PreparedLease prepared, IdempotencyClaim claim,
                          Function<Grant, StoredResponse> answers, boolean mayWait) {
        License license = em.find(License.class, licenseId, LockModeType.PESSIMISTIC_WRITE);
        if (license == null) {
            throw new InvalidLicenseException();
        }
        if (claim != null) {
            IdempotencyRecord earlier = records.find(claim).orElse(null);
            if (earlier != null) {
                if (!earlier.sameRequestAs(claim)) {
                    throw new IdempotencyKeyReusedException();
                }
                return Grant.replay(earlier.response());
            }
        }
        Instant now = prepared.now();
        if (!license.isUsableAt(now)) {
            throw new LicenseSuspendedException();
        }
        Grant grant = returningInstall(license, holder, now)
                .orElseGet(() -> grant(license, holder, prepared, mayWait ? claim : null, mayWait));
        if (claim != null && grant.kind() != Grant.Kind.QUEUED) {
            records.store(claim, holder.clientInstanceId(), answers.apply(grant), now);
        }
        return grant;
    }

    /** One install never holds two seats of one license: a live lease is renewed and answered with 200. */
    private Optional<Grant> returningInstall(License license, Holder holder, Instant now) {
        Lease existing = em.createNamedQuery(Lease.FIND_BY_INSTALL, Lease.class)
                .setParameter("licenseId", license.id())
                .setParameter("clientInstanceId", holder.clientInstanceId())
                .getResultStream().findFirst().orElse(null);
        if (existing == null) {
            return Optional.empty();
        }
        if (!existing.isLiveAt(now, license.skew())) {
            history.ended(existing, LeaseEvent.Kind.EXPIRE, now);
            em.remove(existing);
            em.flush();
            return Optional.empty();
        }
        existing.renew(license.expiryFor(now));
        String token = signingKeys.signer().sign(LeaseSigner.LeaseClaims.of(license, existing, now));
        long inUse = liveLeases.count(license, now);
        return Optional.of(Grant.of(Grant.Kind.RETURNING, existing.id(), LeaseBody.json(existing, token, license, inUse),
                inUse, license.seats()));
    }

    private Grant grant(License license, Holder holder, PreparedLease prepared, IdempotencyClaim claim, boolean mayWait) {
        Instant now = prepared.now();
        long live = liveLeases.count(license, now);
        SeatQueue.Line line = queue.line(license.id(), now);
        int ahead = line.ahead(holder.clientInstanceId());
        if (!license.admits(live + ahead)) {
            if (mayWait) {
                int position = queue.keepPlace(line, holder, now);
                return Grant.queued(new Grant.Place(license.id(), holder, claim, position), live, license.seats());
            }
            throw SeatsExhaustedException.full(live, license.seats(), ahead, retryAfterSeconds(license, now));
        }
        queue.leave(line, holder.clientInstanceId());
        Lease lease = new Lease(prepared.leaseId(), license.id(), holder, now, prepared.expiresAt());
        em.persist(lease);
        history.granted(lease, now);
        license.recordCheckout(now);
        return Grant.of(Grant.Kind.NEW, lease.id(), LeaseBody.json(lease, prepared.token(), license, live + 1),
                live + 1, license.seats());
    }

    /**
     * Seconds until a seat can first free up by expiry (the earliest live lease's {@code expiresAt + skew}),
     * at least 1 and at most the renew interval: a release can come any time, and a polling client should see it.
     */
    private int retryAfterSeconds(License license, Instant now) {
        long untilExpiry = liveLeases.firstPossibleExpiry(license, now)
                .map(end -> (Duration.between(now, end).toMillis() + 999) / 1000)
                .orElse(1L);
        return (int) Math.max(1, Math.min(license.policy().renewAfterSeconds(), untilExpiry));
    }

    /**
     * Hands the seats that are free to the head of the line, to those of its installs whose requests are held
     * on this node ({@code heldHere}); an install ahead of them held on another node keeps its seat for that
     * node to hand over. Counted and read under the license lock with the same rules as {@link #checkout}.
     */
    public Turns serve(String licenseId, List<Waiter> heldHere, Instant now) {
        License license = em.find(License.class, licenseId, LockModeType.PESSIMISTIC_WRITE);
        if (license == null) {
            return Turns.refused(new InvalidLicenseException());
        }
        if (!license.isUsableAt(now)) {
            return Turns.refused(new LicenseSuspendedException());
        }
        Map<String, Waiter> held = new HashMap<>();
        heldHere.forEach(waiter -> held.put(waiter.holder().clientInstanceId(), waiter));
        long live = liveLeases.count(license, now);
        SeatQueue.Line line = queue.line(licenseId, now, held.keySet());
        long free = license.seats() - live;
        Map<String, Grant> granted = new HashMap<>();
        Map<String, Integer> positions = new HashMap<>();
        int place = 0;
        for (QueueEntry entry : line.entries()) {
            Waiter waiter = held.get(entry.holder().clientInstanceId());
            if (place < free && waiter != null) {
                granted.put(entry.holder().clientInstanceId(), handOver(license, entry, waiter, live + granted.size(), now));
                queue.leave(line, entry.holder().clientInstanceId());
            } else {
                positions.put(entry.holder().clientInstanceId(), place - granted.size() + 1);
            }
            place++;
        }
        return new Turns(license.product(), granted, positions, live + granted.size(), license.seats(), null);
    }

    private Grant handOver(License license, QueueEntry entry, Waiter waiter, long liveBefore, Instant now) {
        Lease lease = new Lease(Ids.lease(), license.id(), entry.holder(), now, license.expiryFor(now));
        em.persist(lease);
        history.granted(lease, now);
        license.recordCheckout(now);
        String token = signingKeys.signer().sign(LeaseSigner.LeaseClaims.of(license, lease, now));
        Grant grant = Grant.of(Grant.Kind.NEW, lease.id(),
                LeaseBody.json(lease, token, license, liveBefore + 1, waiter.waitedMillis()), liveBefore + 1, license.seats());
        if (waiter.claim() != null) {
            records.store(waiter.claim(), entry.holder().clientInstanceId(), waiter.answers().apply(grant), now);
        }
        return grant;
    }

    /** A denial is usage history too; recorded after the refused transaction rolled back. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void recordDenial(String licenseId, Holder holder, Instant at) {
        history.denied(licenseId, holder, at);
    }

    /**
     * A lease id, expiry and token made before the lock is taken, so that signing stays out of the
     * serialized window. The lease is stored with exactly this expiry, so the token signs what is stored.
     */
    public record PreparedLease(String leaseId, Instant now, Instant expiresAt, String token) {
    }
}
