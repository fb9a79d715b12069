package dev.keyright.seats.idempotency.boundary;

import dev.keyright.seats.idempotency.entity.IdempotencyKeyReusedException;

import dev.keyright.seats.database.Batches;
import dev.keyright.seats.idempotency.entity.IdempotencyClaim;
import dev.keyright.seats.idempotency.entity.IdempotencyRecord;
import dev.keyright.seats.idempotency.entity.StoredResponse;
import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The stored responses of Idempotency-Keys, read and written in the caller's checkout transaction (under
 * its license lock). What one license can make the server keep is bounded: only grants are stored, an
 * install keeps its newest {@code KEYRIGHT_IDEMPOTENCY_RECORDS_PER_INSTALL} records and a license its
 * newest {@code KEYRIGHT_IDEMPOTENCY_RECORDS_PER_LICENSE}; older ones are dropped right after a new one is
 * stored ({@link #keepWithinBounds}, once the checkout committed; the license's bound at every tenth of it,
 * {@link dev.keyright.seats.idempotency.control.LicenseBoundChecks}), so one looping install cannot push out the
 * records of the others. Everything kept is
 * replayed as the contract says, for at most 24 hours.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.MANDATORY)
public class IdempotencyRecords {

    /** How long a stored answer is kept. */
    public static final Duration RETENTION = Duration.ofHours(24);
    private static final Logger LOG = Logger.getLogger(IdempotencyRecords.class.getName());

    @PersistenceContext
    EntityManager em;
    @EJB
    IdempotencyBounds bounds;

    public Optional<IdempotencyRecord> find(IdempotencyClaim claim) {
        return Optional.ofNullable(em.find(IdempotencyRecord.class, claim.id()));
    }

    /**
     * The answer stored earlier under this claim's key, to be replayed; empty when there is none (or no claim).
     * The same key sent with another request is refused ({@code 422 idempotency-key-reused}), and nothing changes.
     */
    public Optional<StoredResponse> earlierAnswer(IdempotencyClaim claim) {
        if (claim == null) {
            return Optional.empty();
        }
        return find(claim).map(earlier -> {
            if (!earlier.sameRequestAs(claim)) {
                throw new IdempotencyKeyReusedException();
            }
            return earlier.response();
        });
    }

    /**
     * Stores a grant's response under its key, in the caller's checkout transaction. The caller then calls
     * {@link #keepWithinBounds} once that transaction has committed.
     */
    public void store(IdempotencyClaim claim, String clientInstanceId, StoredResponse response, Instant now) {
        em.persist(new IdempotencyRecord(claim, clientInstanceId, response, now));
    }

    /**
     * Drops what falls outside the bounds after {@code stored} was stored ({@link IdempotencyBounds}), once the
     * checkout's transaction committed, so that none of it is done while the license lock is held: one read
     * without a transaction, and a transaction of its own only when there is something to drop. A failure is
     * logged, not thrown: the answer it follows is committed and is the caller's to give (a retry under its key
     * replays it), and the next check of that install's or license's bound drops what this call would have.
     */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void keepWithinBounds(IdempotencyClaim stored, String clientInstanceId) {
        try {
            List<String> beyond = bounds.beyond(stored, clientInstanceId);
            if (!beyond.isEmpty()) {
                bounds.drop(beyond);
            }
        } catch (EJBException | PersistenceException e) {
            LOG.log(Level.WARNING, e, () -> "stored answers of license " + stored.licenseId()
                    + " not trimmed to their bounds this time: " + e);
        }
    }

    /** Deletes up to {@code limit} records created before {@code before}, in a transaction of its own. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public int purgeBefore(Instant before, int limit) {
        return Batches.deleteOlder(em, IdempotencyRecord.FIND_EXPIRED, IdempotencyRecord.DELETE_BY_IDS, before, limit);
    }
}
