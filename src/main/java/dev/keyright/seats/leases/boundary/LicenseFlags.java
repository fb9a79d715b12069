package dev.keyright.seats.leases.boundary;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Clock;

/**
 * Sets the license rows' "may have blocks" and "may have waiters" flags wherever a block in force or a queue entry
 * exists, at every node's start. A node of a version before the flags (schema version 6) adds blocks and queue
 * entries without setting them, and a newer node skips the reads while a flag is clear: during a rolling upgrade the
 * newer nodes may pass over what an older one added, until the next node that starts, the last one of the upgrade at
 * the latest, sets the flags here. Between nodes of this version the flags are kept exact in the checkout and the
 * revoke, under the license row lock; this only ever sets a flag, never clears one.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class LicenseFlags {

    @PersistenceContext
    EntityManager em;
    @Inject
    Clock clock;

    /** The number of license rows whose flags were set here (0 when every flag was already right). */
    public int flagWhatIsThere() {
        int blocks = em.createQuery("UPDATE License l SET l.mayHaveBlocks = TRUE WHERE l.mayHaveBlocks = FALSE"
                        + " AND l.id IN (SELECT b.licenseId FROM InstallBlock b WHERE b.blockedUntil > :now)")
                .setParameter("now", clock.instant().toEpochMilli())
                .executeUpdate();
        int waiters = em.createQuery("UPDATE License l SET l.mayHaveWaiters = TRUE WHERE l.mayHaveWaiters = FALSE"
                        + " AND l.id IN (SELECT q.licenseId FROM QueueEntry q)")
                .executeUpdate();
        return blocks + waiters;
    }
}
