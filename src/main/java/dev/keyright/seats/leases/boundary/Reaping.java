package dev.keyright.seats.leases.boundary;

import dev.keyright.seats.database.Batches;
import dev.keyright.seats.leases.control.History;
import dev.keyright.seats.leases.entity.Lease;
import dev.keyright.seats.leases.entity.LeaseEvent;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;
import java.util.List;

/**
 * One bounded batch of the reaper's work per transaction. Each row is locked and its expiry checked
 * again before it is deleted, so a renew that committed meanwhile is never reaped.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class Reaping {

    @PersistenceContext
    EntityManager em;
    @Inject
    History history;

    /** Deletes up to {@code limit} leases with {@code expires_at < reapableBefore}; returns the licenses of those it deleted. */
    public List<String> reapLeases(Instant reapableBefore, Instant now, int limit) {
        List<Lease> doomed = em.createNamedQuery(Lease.FIND_REAPABLE, Lease.class)
                .setParameter("reapableBefore", reapableBefore.toEpochMilli())
                .setLockMode(LockModeType.PESSIMISTIC_WRITE)
                .setMaxResults(limit)
                .getResultList();
        List<String> reaped = new java.util.ArrayList<>();
        for (Lease lease : doomed) {
            if (lease.expiresAt().isBefore(reapableBefore)) {
                history.ended(lease, LeaseEvent.Kind.EXPIRE, now);
                em.remove(lease);
                reaped.add(lease.licenseId());
            }
        }
        return reaped;
    }

    /** Deletes up to {@code limit} usage events older than the retention. */
    public int purgeEvents(Instant before, int limit) {
        return Batches.deleteOlder(em, LeaseEvent.FIND_OLDER_THAN, LeaseEvent.DELETE_BY_IDS, before, limit);
    }
}
