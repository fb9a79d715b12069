package dev.keyright.seats.leases.boundary;

import dev.keyright.seats.database.Ids;
import dev.keyright.seats.database.QuietConflicts;
import dev.keyright.seats.idempotency.boundary.IdempotencyRecords;
import dev.keyright.seats.idempotency.entity.IdempotencyClaim;
import dev.keyright.seats.idempotency.entity.StoredResponse;
import dev.keyright.seats.leases.control.CurrentKeys;
import dev.keyright.seats.leases.control.History;
import dev.keyright.seats.leases.control.HostLimit;
import dev.keyright.seats.leases.control.InstallBlocks;
import dev.keyright.seats.leases.control.KnownLeases;
import dev.keyright.seats.leases.control.LeaseSigner;
import dev.keyright.seats.leases.control.LicenseGate;
import dev.keyright.seats.leases.control.LiveLeases;
import dev.keyright.seats.leases.control.SeatPolicy;
import dev.keyright.seats.leases.control.SeatQueue;
import dev.keyright.seats.leases.control.SeatShare;
import dev.keyright.seats.leases.control.UserLimit;
import dev.keyright.seats.leases.entity.Holder;
import dev.keyright.seats.leases.entity.Lease;
import dev.keyright.seats.leases.entity.LeaseEvent;
import dev.keyright.seats.leases.entity.QueueEntry;
import dev.keyright.seats.leases.entity.SeatRefusal;
import dev.keyright.seats.leases.entity.SeatsExhaustedException;
import dev.keyright.seats.licenses.entity.InvalidLicenseException;
import dev.keyright.seats.licenses.entity.License;
import dev.keyright.seats.licenses.entity.LicenseSuspendedException;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.interceptor.Interceptors;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
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
 * <li>lock the license row ({@code SELECT ... FOR UPDATE}) once this node's turn at it came ({@link LicenseGate});
 * nothing is read before it;</li>
 * <li>replay a response already committed under this Idempotency-Key;</li>
 * <li>refuse an install an administrator blocked ({@link InstallBlocks}; not read while the license row says none
 * is, {@link License#mayHaveBlocks});</li>
 * <li>give an install that already holds a live seat (or a lingering one it released) the same lease, renewed;</li>
 * <li>ask the holder caps ({@link UserLimit}, {@link HostLimit});</li>
 * <li>count live leases with the one liveness rule and read the queue ({@link SeatQueue#lineFor}: not while the
 * license row says nobody waits): a seat is free for this install only
 * when more seats are free than installs wait ahead of it and reservations keep for others, within the seats
 * plus the overdraft ({@link SeatShare}); refuse, or keep its place in the queue;</li>
 * <li>insert the lease, write the license row, store the idempotency record: one commit.</li>
 * </ol>
 * That is the {@link Pass#CAREFUL} pass. A checkout is first made as a {@link Pass#QUICK} one, which skips the
 * two reads that find nothing for a new install (steps 2 and 4) and grants only a new seat: what they would have
 * found, a unique key finds at the insert (the record's id is the license's and the key's; a license holds one
 * lease per install), and the caller makes the careful pass after that conflict ({@link Seats}). Anything other
 * than a new seat (a refusal, a place in the queue) is decided by the careful pass, in the same transaction, with
 * the answers the quick pass already had ({@link Asked}): only the two skipped reads are new to it.
 * <p>
 * The token was signed before the lock (see {@link Seats}); a returning install's renewal and a seat handed to
 * a waiting install ({@link #serve}) sign inside it.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRED)
@Interceptors(QuietConflicts.class)
public class Checkout {

    @PersistenceContext
    EntityManager em;
    @Inject
    History history;
    @Inject
    LiveLeases liveLeases;
    @Inject
    CurrentKeys currentKeys;
    @EJB
    IdempotencyRecords records;
    @Inject
    SeatQueue queue;
    @Inject
    InstallBlocks blocks;
    @Inject
    UserLimit userLimit;
    @Inject
    HostLimit hostLimit;
    @Inject
    SeatShare seatShare;
    @Inject
    LicenseGate gate;
    @Inject
    KnownLeases knownLeases;

    /**
     * @param answers how the caller answers a grant; with a claim, that answer is stored in this transaction,
     *                so that a retry under the same Idempotency-Key replays it exactly
     * @param mayWait the request may be held ({@code Prefer: wait}): instead of a refusal, the install keeps its
     *                place in the queue, and the grant says which ({@link Grant.Kind#QUEUED})
     */
    public Grant checkout(String licenseId, Holder holder, PreparedLease prepared, IdempotencyClaim claim,
                          Function<Grant, StoredResponse> answers, boolean mayWait, Pass pass) {
        License license = gate.lock(licenseId, "granted");
        if (license == null) {
            throw new InvalidLicenseException();
        }
        Instant now = prepared.now();
        Asked asked = new Asked(license, holder, now);
        Optional<Grant> newSeat = pass == Pass.QUICK ? newSeat(asked, prepared) : Optional.empty();
        Grant grant;
        if (newSeat.isPresent()) {
            grant = newSeat.get();
        } else {
            Optional<StoredResponse> earlier = records.earlierAnswer(claim);
            if (earlier.isPresent()) {
                return Grant.replay(earlier.get());
            }
            if (!license.isUsableAt(now)) {
                throw new LicenseSuspendedException();
            }
            refuseIfAny(asked.block());
            grant = returningInstall(license, holder, now)
                    .orElseGet(() -> grant(asked, prepared, mayWait ? claim : null, mayWait));
        }
        if (claim != null && grant.kind() != Grant.Kind.QUEUED) {
            records.store(claim, holder.clientInstanceId(), answers.apply(grant), now);
            return grant.withAnswerStored();
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
        if (existing.isReleased()) {
            existing.resume(license.expiryFor(now));
            history.resumed(existing);
        } else {
            existing.renew(license.expiryFor(now));
        }
        knownLeases.remember(existing);
        String token = currentKeys.signer().sign(LeaseSigner.LeaseClaims.of(license, existing, now));
        long inUse = liveLeases.count(license, now);
        return Optional.of(Grant.of(Grant.Kind.RETURNING, existing.id(), LeaseBody.json(existing, token, license, inUse),
                inUse, license.seats()));
    }

    private Grant grant(Asked asked, PreparedLease prepared, IdempotencyClaim claim, boolean mayWait) {
        License license = asked.license;
        Holder holder = asked.holder;
        Instant now = asked.now;
        refuseIfAny(asked.cap());
        Admission admission = asked.admission();
        if (!admission.admits()) {
            if (mayWait) {
                int position = queue.keepPlace(license, admission.line(), holder, now);
                return Grant.queued(new Grant.Place(license.id(), holder, claim, position), admission.live(),
                        license.seats());
            }
            throw SeatsExhaustedException.full(admission.live(), license.seats(), license.sharing().overdraftSeats(),
                    admission.share().keptForOthers(), admission.ahead(), retryAfterSeconds(license, now));
        }
        return seat(license, holder, prepared, admission);
    }

    /**
     * The quick pass: a new seat when the license is usable, the install neither blocked nor capped, and a seat
     * free for it; empty otherwise, and nothing written (the careful pass decides then).
     */
    private Optional<Grant> newSeat(Asked asked, PreparedLease prepared) {
        if (!asked.license.isUsableAt(asked.now) || asked.block().isPresent() || asked.cap().isPresent()) {
            return Optional.empty();
        }
        Admission admission = asked.admission();
        return admission.admits() ? Optional.of(seat(asked.license, asked.holder, prepared, admission))
                : Optional.empty();
    }

    /**
     * What one checkout asks under the license lock about a new seat, each question asked once, when first needed:
     * the block, the caps, the count and the line. The careful pass that follows a quick one in the same transaction
     * finds the same answers (nothing was written in between; an expired lease of the install that it removes was
     * in no count), so it uses the quick pass's.
     */
    private final class Asked {
        private final License license;
        private final Holder holder;
        private final Instant now;
        private Optional<SeatRefusal> block;
        private Optional<SeatRefusal> cap;
        private Admission admission;

        Asked(License license, Holder holder, Instant now) {
            this.license = license;
            this.holder = holder;
            this.now = now;
        }

        Optional<SeatRefusal> block() {
            if (block == null) {
                block = blocks.refusal(license, holder, now);
            }
            return block;
        }

        Optional<SeatRefusal> cap() {
            if (cap == null) {
                cap = capped(license, holder, now);
            }
            return cap;
        }

        Admission admission() {
            if (admission == null) {
                admission = admissionFor(license, holder, now);
            }
            return admission;
        }
    }

    private Optional<SeatRefusal> capped(License license, Holder holder, Instant now) {
        for (SeatPolicy cap : List.of(userLimit, hostLimit)) {
            Optional<SeatRefusal> refusal = cap.refusal(license, holder, now);
            if (refusal.isPresent()) {
                return refusal;
            }
        }
        return Optional.empty();
    }

    private Admission admissionFor(License license, Holder holder, Instant now) {
        long live = liveLeases.count(license, now);
        SeatQueue.Line line = queue.lineFor(license, now);
        int ahead = line.ahead(holder.clientInstanceId());
        return new Admission(live, line, ahead, seatShare.of(license, holder, live, now));
    }

    /** What the count, the queue and the seat share say about a new seat for one install, under the license lock. */
    private record Admission(long live, SeatQueue.Line line, int ahead, SeatShare.Share share) {
        boolean admits() {
            return share.admits(ahead);
        }
    }

    private Grant seat(License license, Holder holder, PreparedLease prepared, Admission admission) {
        Instant now = prepared.now();
        queue.seated(license, admission.line(), holder.clientInstanceId());
        Lease lease = new Lease(prepared.leaseId(), license.id(), holder, now, prepared.expiresAt());
        String token = prepared.token();
        if (admission.share().overdraft()) {
            lease.markOverdraft(); // the token says so too: signed again, under the lock, only for an overdraft grant
            token = currentKeys.signer().sign(LeaseSigner.LeaseClaims.of(license, lease, now));
        }
        persistGranted(license, lease, now);
        long live = admission.live();
        return Grant.of(Grant.Kind.NEW, lease.id(), LeaseBody.json(lease, token, license, live + 1),
                live + 1, license.seats(), lease.overdraft());
    }

    /**
     * A seat granted now, by either way a checkout grants one: the lease stored, remembered by this node (so its
     * first heartbeat here is one statement, {@link KnownLeases}), in the usage history, and counted on the license.
     */
    private void persistGranted(License license, Lease lease, Instant now) {
        em.persist(lease);
        knownLeases.remember(lease);
        history.granted(lease, now);
        license.recordCheckout(now);
    }

    private static void refuseIfAny(Optional<SeatRefusal> refusal) {
        if (refusal.isPresent()) {
            throw refusal.get();
        }
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
        License license = gate.lock(licenseId, "granted");
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
        Map<String, Grant> granted = new HashMap<>();
        Map<String, Integer> positions = new HashMap<>();
        int place = 0;
        for (QueueEntry.Place entry : line.entries()) {
            Holder holder = entry.holder();
            Waiter waiter = held.get(holder.clientInstanceId());
            int ahead = place - granted.size();
            long liveNow = live + granted.size();
            SeatShare.Share share = waiter == null ? null : seatShare.of(license, holder, liveNow, now);
            if (share != null && share.admits(ahead) && allowed(license, holder, now)) {
                granted.put(holder.clientInstanceId(), handOver(license, entry, waiter, share, now));
                queue.leave(line, holder.clientInstanceId());
            } else {
                positions.put(holder.clientInstanceId(), ahead + 1);
            }
            place++;
        }
        return new Turns(license.product(), granted, positions, live + granted.size(), license.seats(), null);
    }

    /** A waiter a cap or a block now refuses keeps its place; its next checkout tells it why. */
    private boolean allowed(License license, Holder holder, Instant now) {
        return blocks.refusal(license, holder, now).isEmpty() && userLimit.refusal(license, holder, now).isEmpty()
                && hostLimit.refusal(license, holder, now).isEmpty();
    }

    private Grant handOver(License license, QueueEntry.Place entry, Waiter waiter, SeatShare.Share share, Instant now) {
        long liveBefore = share.live();
        Lease lease = new Lease(Ids.lease(), license.id(), entry.holder(), now, license.expiryFor(now));
        if (share.overdraft()) {
            lease.markOverdraft();
        }
        persistGranted(license, lease, now);
        String token = currentKeys.signer().sign(LeaseSigner.LeaseClaims.of(license, lease, now));
        Grant grant = Grant.of(Grant.Kind.NEW, lease.id(),
                LeaseBody.json(lease, token, license, liveBefore + 1, waiter.waitedMillis()), liveBefore + 1, license.seats(),
                lease.overdraft());
        if (waiter.claim() != null) {
            records.store(waiter.claim(), entry.holder().clientInstanceId(), waiter.answers().apply(grant), now);
            return grant.withAnswerStored();
        }
        return grant;
    }

    /** A denial is usage history too, with its reason (a problem type); recorded after the refused transaction rolled back. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void recordDenial(String licenseId, Holder holder, Instant at, String reason) {
        history.denied(licenseId, holder, at, reason);
    }

    /** Which reads a checkout makes under the license lock (see the class comment). */
    public enum Pass {
        /** Grants a new seat without looking for an earlier answer or the install's lease; nothing else. */
        QUICK,
        /** Every step, in order: after the quick pass met a unique key, and for whatever it does not grant. */
        CAREFUL
    }

    /**
     * A lease id, expiry and token made before the lock is taken, so that signing stays out of the
     * serialized window. The lease is stored with exactly this expiry, so the token signs what is stored.
     */
    public record PreparedLease(String leaseId, Instant now, Instant expiresAt, String token) {
    }
}
