package dev.keyright.seats.idempotency.boundary;

import dev.keyright.seats.idempotency.entity.IdempotencyKeyReusedException;

import dev.keyright.seats.configuration.KeyrightConfig;
import dev.keyright.seats.database.Batches;
import dev.keyright.seats.idempotency.entity.IdempotencyClaim;
import dev.keyright.seats.idempotency.entity.IdempotencyRecord;
import dev.keyright.seats.idempotency.entity.StoredResponse;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The stored responses of Idempotency-Keys, read and written in the caller's checkout transaction (under
 * its license lock). What one license can make the server keep is bounded: only grants are stored, an
 * install keeps its newest {@code KEYRIGHT_IDEMPOTENCY_RECORDS_PER_INSTALL} records and a license its
 * newest {@code KEYRIGHT_IDEMPOTENCY_RECORDS_PER_LICENSE}; older ones are dropped right after a new one is
 * stored ({@link #keepWithinBounds}, once the checkout committed), so one looping install cannot push out the
 * records of the others. Everything kept is
 * replayed as the contract says, for at most 24 hours.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.MANDATORY)
public class IdempotencyRecords {

    /** How long a stored answer is kept. */
    public static final Duration RETENTION = Duration.ofHours(24);
    private static final int DROP_BATCH = 100;

    @PersistenceContext
    EntityManager em;
    @Inject
    KeyrightConfig config;

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
     * Drops what falls outside the bounds after {@code stored} was stored: the install's records beyond its newest
     * {@code KEYRIGHT_IDEMPOTENCY_RECORDS_PER_INSTALL}, the license's beyond its newest
     * {@code KEYRIGHT_IDEMPOTENCY_RECORDS_PER_LICENSE}. In a transaction of its own, after the checkout's, so that
     * its two reads (the license's walks up to its bound's index entries) and its delete are not done while the
     * license lock is held: nothing in them needs it. Should the node stop in between, the next answer stored
     * for that license drops what this call would have dropped.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void keepWithinBounds(IdempotencyClaim stored, String clientInstanceId) {
        dropBeyond(em.createNamedQuery(IdempotencyRecord.FIND_NEWEST_OF_INSTALL, String.class)
                .setParameter("clientInstanceId", clientInstanceId), stored, config.idempotencyRecordsPerInstall());
        dropBeyond(em.createNamedQuery(IdempotencyRecord.FIND_NEWEST_OF_LICENSE, String.class), stored,
                config.idempotencyRecordsPerLicense());
    }

    /** Deletes up to {@code limit} records created before {@code before}, in a transaction of its own. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public int purgeBefore(Instant before, int limit) {
        return Batches.deleteOlder(em, IdempotencyRecord.FIND_EXPIRED, IdempotencyRecord.DELETE_BY_IDS, before, limit);
    }

    private void dropBeyond(jakarta.persistence.TypedQuery<String> newestFirst, IdempotencyClaim kept, int bound) {
        List<String> beyond = newestFirst.setParameter("licenseId", kept.licenseId())
                .setParameter("keep", kept.id())
                .setFirstResult(bound - 1)
                .setMaxResults(DROP_BATCH)
                .getResultList();
        if (!beyond.isEmpty()) {
            em.createNamedQuery(IdempotencyRecord.DELETE_BY_IDS).setParameter("ids", beyond).executeUpdate();
        }
    }
}
