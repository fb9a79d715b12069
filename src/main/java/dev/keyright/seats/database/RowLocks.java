package dev.keyright.seats.database;

import jakarta.persistence.EntityManager;
import java.util.List;

/**
 * A row read by its key and locked ({@code SELECT ... FOR UPDATE}) for the rest of the current transaction: the
 * license row a checkout serializes on, the lease row a release, revoke or borrow ends, an activation's row. Each
 * entity names its query ({@code LOCK}), which carries EclipseLink's lock hint; a locking read also refreshes an
 * entity the transaction already holds, as a locking find does.
 * <p>
 * Not {@code em.find(type, id, PESSIMISTIC_WRITE)}, nor a named query with a JPA {@code lockMode}: for both,
 * EclipseLink builds a new query at every call and generates its SQL again (a third of the license lock's CPU in
 * docs/BENCHMARK.md, round 21). The hint is part of the named query, which is prepared once. EclipseLink is this
 * application's provider on every server (persistence.xml names it); CheckoutFaultsIT holds the license row and the
 * lease row from another connection, and its tests fail if a checkout or a release does not wait for the lock.
 */
public final class RowLocks {

    /** EclipseLink's pessimistic lock for a query ({@code QueryHints.PESSIMISTIC_LOCK}), and its value. */
    public static final String LOCK_HINT = "eclipselink.pessimistic-lock";
    public static final String FOR_UPDATE = "Lock";

    private RowLocks() {
    }

    /** The locked row of {@code id}, or null when there is none; {@code lockQuery} selects by its parameter {@code id}. */
    public static <T> T lock(EntityManager em, String lockQuery, Class<T> type, String id) {
        List<T> rows = em.createNamedQuery(lockQuery, type).setParameter("id", id).getResultList();
        return rows.isEmpty() ? null : rows.get(0);
    }
}
