package dev.keyright.seats.idempotency.boundary;

import dev.keyright.seats.configuration.KeyrightConfig;
import dev.keyright.seats.idempotency.control.LicenseBoundChecks;
import dev.keyright.seats.idempotency.entity.IdempotencyClaim;
import dev.keyright.seats.idempotency.entity.IdempotencyRecord;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.TypedQuery;
import java.util.List;

/**
 * Keeps the stored answers within their bounds: an install's newest {@code KEYRIGHT_IDEMPOTENCY_RECORDS_PER_INSTALL},
 * a license's newest {@code KEYRIGHT_IDEMPOTENCY_RECORDS_PER_LICENSE}. Called through
 * {@link IdempotencyRecords#keepWithinBounds} after each answer is stored, in a transaction of its own: its reads
 * (the install's at every store, the license's, a walk of up to its bound's index entries, at every tenth of that
 * bound: {@link LicenseBoundChecks}) and its deletes need no license lock.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class IdempotencyBounds {

    private static final int DROP_BATCH = LicenseBoundChecks.MAX_PERIOD;

    @PersistenceContext
    EntityManager em;
    @Inject
    KeyrightConfig config;
    @Inject
    LicenseBoundChecks licenseChecks;

    /**
     * Drops the install's records beyond its bound once {@code stored} was stored, and the license's beyond its
     * bound when this store is one that checks it ({@link LicenseBoundChecks}).
     */
    public void keep(IdempotencyClaim stored, String clientInstanceId) {
        dropBeyond(em.createNamedQuery(IdempotencyRecord.FIND_NEWEST_OF_INSTALL, String.class)
                .setParameter("clientInstanceId", clientInstanceId), stored, config.idempotencyRecordsPerInstall());
        int licenseBound = config.idempotencyRecordsPerLicense();
        if (licenseChecks.due(stored.licenseId(), licenseBound)) {
            dropBeyond(em.createNamedQuery(IdempotencyRecord.FIND_NEWEST_OF_LICENSE, String.class), stored, licenseBound);
        }
    }

    private void dropBeyond(TypedQuery<String> newestFirst, IdempotencyClaim kept, int bound) {
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
