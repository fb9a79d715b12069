package dev.keyright.seats.database;

import jakarta.ejb.EJBException;
import jakarta.persistence.PersistenceException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Runs a serialized transaction (a checkout) again when the database chose it as a deadlock victim (or Galera
 * refused it at certification), at most {@code retries} times with a jittered, growing pause, from outside the
 * failed transaction, and only while the first attempt began less than {@link #RETRY_WITHIN} ago; a deadlock
 * past either bound, or a lock wait past its timeout, is the caller's "busy" answer (a 503 with
 * {@code Retry-After}: nothing was granted). Any other failure passes through untouched.
 * <p>
 * A commit the transaction manager could not complete is run again too, within the same bounds. A Galera
 * certification failure is reported so, with nothing left of the driver's deadlock but a message, and nothing
 * was committed. A commit that failed for another reason (the connection lost while committing) may have
 * committed; running the checkout again is still safe, because a checkout is keyed by the install (a seat) or
 * the machine (an activation) and by the Idempotency-Key: the second run finds what the first committed and
 * answers with it. Past the bounds such a failure passes through, and is answered as the database's.
 * <p>
 * The time bound keeps a checkout's answer within a client's timeout when every attempt keeps losing (a second
 * writer of the license row on another Galera node, a loaded machine): the last attempt starts within
 * {@code RETRY_WITHIN}, and one attempt waits at most {@code LicenseGate.WAIT} for this node's turn and the
 * database's lock timeout for the row, so the answer comes within about 1 + 5 + 3 s as deployed
 * ({@code innodb_lock_wait_timeout=3}), under the SDK's 10 s. Attempts that lose quickly are all made: five
 * retries of a 10 ms checkout and their pauses (at most 20, 40, 80, 160, 160 ms) take well under a second.
 */
public final class DeadlockRetry {

    /** No retry starts later than this after the first attempt began (measured on the monotonic clock). */
    public static final Duration RETRY_WITHIN = Duration.ofSeconds(1);

    private DeadlockRetry() {
    }

    public static <T> T run(int retries, Supplier<T> transaction, Supplier<? extends RuntimeException> busy) {
        return run(retries, RETRY_WITHIN, System::nanoTime, transaction, busy);
    }

    /** The same for a transaction that answers nothing (a release, a revoke). */
    public static void run(int retries, Runnable transaction, Supplier<? extends RuntimeException> busy) {
        run(retries, () -> {
            transaction.run();
            return null;
        }, busy);
    }

    static <T> T run(int retries, Duration within, LongSupplier nanoTime, Supplier<T> transaction,
                     Supplier<? extends RuntimeException> busy) {
        long began = nanoTime.getAsLong();
        for (int attempt = 0; ; attempt++) {
            try {
                return transaction.get();
            } catch (EJBException | PersistenceException e) {
                if ((Faults.isDeadlock(e) || Faults.isFailedCommit(e)) && attempt < retries) {
                    long pause = ThreadLocalRandom.current().nextLong(1_000_000L, 20_000_000L) << Math.min(attempt, 3);
                    if (nanoTime.getAsLong() + pause - began <= within.toNanos()) {
                        LockSupport.parkNanos(pause);
                        continue;
                    }
                }
                if (Faults.isDeadlock(e) || Faults.isLockTimeout(e)) {
                    throw busy.get();
                }
                throw e;
            }
        }
    }
}
