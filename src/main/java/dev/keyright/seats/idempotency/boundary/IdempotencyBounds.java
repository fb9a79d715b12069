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
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Keeps the stored answers within their bounds: an install's newest {@code KEYRIGHT_IDEMPOTENCY_RECORDS_PER_INSTALL},
 * a license's newest {@code KEYRIGHT_IDEMPOTENCY_RECORDS_PER_LICENSE}. Called through
 * {@link IdempotencyRecords#keepWithinBounds} after each answer is stored. Finding what falls outside the bounds
 * ({@link #beyond}: the install's records at every store, the license's, a walk of up to its bound's index
 * entries, at every tenth of that bound, {@link LicenseBoundChecks}) is a read without a transaction, one statement;
 * only when it finds something is a transaction begun, to {@link #drop} it. None of it needs the license lock.
 */
@Stateless
public class IdempotencyBounds {

    private static final int DROP_BATCH = LicenseBoundChecks.MAX_PERIOD;

    @PersistenceContext
    EntityManager em;
    @Inject
    KeyrightConfig config;
    @Inject
    LicenseBoundChecks licenseChecks;

    /**
     * The ids of the records beyond the install's bound once {@code stored} was stored, and of those beyond the
     * license's bound when this store is one that checks it ({@link LicenseBoundChecks}); the newest kept first
     * walked, {@code stored} never among them. Read outside any transaction: a record another node drops meanwhile
     * is simply not found by {@link #drop}.
     */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public List<String> beyond(IdempotencyClaim stored, String clientInstanceId) {
        List<String> beyond = beyondInstallBound(stored, clientInstanceId, config.idempotencyRecordsPerInstall());
        int licenseBound = config.idempotencyRecordsPerLicense();
        if (licenseChecks.due(stored.licenseId(), licenseBound)) {
            beyondLicenseBound(stored, licenseBound).stream().filter(id -> !beyond.contains(id)).forEach(beyond::add);
        }
        return beyond;
    }

    /** Deletes the given records, in a transaction of its own. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void drop(List<String> ids) {
        em.createNamedQuery(IdempotencyRecord.DELETE_BY_IDS).setParameter("ids", ids).executeUpdate();
    }

    /**
     * Read at every store: the install's records, newest first, up to a fixed limit that is part of the named query
     * ({@link IdempotencyRecord#INSTALL_READ_LIMIT}), the bound applied to what was read. An install holds about its
     * bound, so that reads a few ids more than paging in SQL would; paging set per call makes EclipseLink generate
     * the query's SQL again at every call (its preparation was 43 % of this read's CPU, docs/BENCHMARK.md round 21).
     */
    private List<String> beyondInstallBound(IdempotencyClaim kept, String clientInstanceId, int bound) {
        return em.createNamedQuery(IdempotencyRecord.FIND_NEWEST_OF_INSTALL, String.class)
                .setParameter("licenseId", kept.licenseId())
                .setParameter("clientInstanceId", clientInstanceId)
                .setParameter("keep", kept.id())
                .getResultStream()
                .skip(bound - 1L)
                .limit(DROP_BATCH)
                .collect(Collectors.toCollection(ArrayList::new));
    }

    /** Read at every tenth of the license's bound only: a license holds up to a million, so it pages in SQL. */
    private List<String> beyondLicenseBound(IdempotencyClaim kept, int bound) {
        return em.createNamedQuery(IdempotencyRecord.FIND_NEWEST_OF_LICENSE, String.class)
                .setParameter("licenseId", kept.licenseId())
                .setParameter("keep", kept.id())
                .setFirstResult(bound - 1)
                .setMaxResults(DROP_BATCH)
                .getResultList();
    }
}
