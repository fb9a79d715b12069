package dev.keyright.seats.leases.boundary;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

/**
 * Sets the license rows' "may have blocks" and "may have waiters" flags wherever an install_block or a queue_entry row
 * exists, at every node's start, whether or not the block is still in force: a flag set too often costs the
 * license's next checkout one read, which finds nothing in force and clears it, and so what "in force" means stays
 * in one place ({@link dev.keyright.seats.leases.entity.InstallBlock#FIND_IN_FORCE}). A node of a version before the
 * flags (schema version 6) adds blocks and queue entries without setting them, and a newer node skips the reads
 * while a flag is clear: during a rolling upgrade the newer nodes may pass over what an older one added, until the
 * next node that starts, the last one of the upgrade at the latest, sets the flags here. Between nodes of this
 * version the flags are kept exact in the checkout and the revoke, under the license row lock; this only ever sets
 * a flag, never clears one.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class LicenseFlags {

    @PersistenceContext
    EntityManager em;

    /**
     * The number of license rows whose flags were set here (0 when every flag was already set). Native SQL that H2
     * and MariaDB both run: EclipseLink writes a JPQL bulk update with a subquery, on its MariaDB platform, as a
     * multi-table update through a temporary table, which H2 (the embedded default) refuses.
     */
    public int flagWhatIsThere() {
        int blocks = em.createNativeQuery("UPDATE license SET may_have_blocks = TRUE WHERE may_have_blocks = FALSE"
                        + " AND id IN (SELECT license_id FROM install_block)")
                .executeUpdate();
        int waiters = em.createNativeQuery("UPDATE license SET may_have_waiters = TRUE WHERE may_have_waiters = FALSE"
                        + " AND id IN (SELECT license_id FROM queue_entry)")
                .executeUpdate();
        return blocks + waiters;
    }
}
