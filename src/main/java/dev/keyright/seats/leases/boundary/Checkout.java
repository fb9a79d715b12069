package dev.keyright.seats.leases.boundary;

import dev.keyright.seats.idempotency.boundary.IdempotencyRecords;
import dev.keyright.seats.idempotency.entity.IdempotencyClaim;
import dev.keyright.seats.idempotency.entity.IdempotencyKeyReusedException;
import dev.keyright.seats.idempotency.entity.IdempotencyRecord;
import dev.keyright.seats.idempotency.entity.StoredResponse;
import dev.keyright.seats.leases.control.History;
import dev.keyright.seats.leases.control.LeaseSigner;
import dev.keyright.seats.leases.control.LiveLeases;
import dev.keyright.seats.leases.entity.Holder;
import dev.keyright.seats.leases.entity.Lease;
import dev.keyright.seats.leases.entity.LeaseEvent;
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
import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;

/**
 * The checkout transaction, the only serialized operation, in the order that keeps the count honest:
 * <ol>
 * <li>lock the license row ({@code SELECT ... FOR UPDATE}); nothing is read before it;</li>
 * <li>replay a response already committed under this Idempotency-Key;</li>
 * <li>give an install that already holds a live seat the same lease, renewed;</li>
 * <li>count live leases with the one liveness rule, refuse when full;</li>
 * <li>insert the lease, write the license row, store the idempotency record: one commit.</li>
 * </ol>
 * The token was signed before the lock (see {@link Seats}); only a returning install's renewal signs inside it.
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

    /**
     * @param answers how the caller answers a grant; with a claim, that answer is stored in this transaction,
     *                so that a retry under the same Idempotency-Key replays it exactly
     */
    public Grant checkout(String licenseId, Holder holder, PreparedLease prepared, IdempotencyClaim claim,
                          Function<Grant, StoredResponse> answers) {
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
        Grant grant = returningInstall(license, holder, now).orElseGet(() -> grant(license, holder, prepared));
        if (claim != null) {
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

    private Grant grant(License license, Holder holder, PreparedLease prepared) {
        Instant now = prepared.now();
        long live = liveLeases.count(license, now);
        if (!license.admits(live)) {
            throw new SeatsExhaustedException(live, license.seats(), license.policy().renewAfterSeconds());
        }
        Lease lease = new Lease(prepared.leaseId(), license.id(), holder, now, prepared.expiresAt());
        em.persist(lease);
        history.granted(lease, now);
        license.recordCheckout(now);
        return Grant.of(Grant.Kind.NEW, lease.id(), LeaseBody.json(lease, prepared.token(), license, live + 1),
                live + 1, license.seats());
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
