package dev.keyright.seats.database;

import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.InvocationContext;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

/**
 * On a bean whose transactions contend for rows (a checkout; the first nodes' inserts of the signing key and the
 * admin user at start-up, which StartUp loads again on losing): a lost conflict leaves the bean as a
 * {@link LostConflict}, rolled back and not logged, instead of as a system exception, which the EJB container
 * logs with its stack trace, after EclipseLink had logged it once already. Under contention, on a Galera cluster
 * with writers on every node, that was two stack traces (tens of kilobytes) per retried conflict. Any other
 * failure passes through untouched, and is logged where it is answered.
 * <p>
 * The method's writes are flushed before it returns, so that a conflict met by its last statements (batched
 * inserts EclipseLink would otherwise send at commit) is met here too. What the commit itself can still lose
 * (a Galera certification failure) the transaction manager reports, not this.
 */
public class QuietConflicts {

    @PersistenceContext
    EntityManager em;

    @AroundInvoke
    public Object quietly(InvocationContext invocation) throws Exception {
        try {
            Object result = invocation.proceed();
            em.flush();
            return result;
        } catch (RuntimeException e) { // EclipseLink's own DatabaseException is not a PersistenceException
            if (!(e instanceof LostConflict) && (Faults.isDeadlock(e) || Faults.isLockTimeout(e) || Faults.isDuplicateKey(e))) {
                throw new LostConflict(e);
            }
            throw e;
        }
    }
}
