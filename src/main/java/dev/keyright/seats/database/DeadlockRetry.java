package dev.keyright.seats.database;

import jakarta.ejb.EJBException;
import jakarta.persistence.PersistenceException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * Runs a serialized transaction (a checkout) again when the database chose it as a deadlock victim (or Galera
 * refused it at certification), at most {@code retries} times with a jittered, growing pause, from outside the
 * failed transaction; a deadlock past that bound, or a lock wait past its timeout, is the caller's "busy" answer
 * (a 503 with {@code Retry-After}: nothing was granted). Any other failure passes through untouched.
 */
public final class DeadlockRetry {

    private DeadlockRetry() {
    }

    public static <T> T run(int retries, Supplier<T> transaction, Supplier<? extends RuntimeException> busy) {
        for (int attempt = 0; ; attempt++) {
            try {
                return transaction.get();
            } catch (EJBException | PersistenceException e) {
                if (Faults.isDeadlock(e) && attempt < retries) {
                    LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(1_000_000L, 20_000_000L) << Math.min(attempt, 3));
                    continue;
                }
                if (Faults.isDeadlock(e) || Faults.isLockTimeout(e)) {
                    throw busy.get();
                }
                throw e;
            }
        }
    }
}
