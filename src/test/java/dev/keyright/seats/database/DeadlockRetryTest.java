package dev.keyright.seats.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.ejb.EJBException;
import jakarta.persistence.PersistenceException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The bounded retry of a serialized transaction (the seat and activation checkouts), by how the database failed. */
class DeadlockRetryTest {

    private static final PersistenceException DEADLOCK =
            new PersistenceException(new SQLException("Deadlock found when trying to get lock", "40001", 1213));
    private static final PersistenceException LOCK_TIMEOUT =
            new PersistenceException(new SQLException("Lock wait timeout exceeded", "HY000", 1205));

    static final class Busy extends RuntimeException {
    }

    @Test
    void aDeadlockVictimIsRunAgainIntoItsResult() {
        AtomicInteger runs = new AtomicInteger();
        String result = DeadlockRetry.run(5, () -> {
            if (runs.incrementAndGet() < 3) {
                throw new EJBException(DEADLOCK);
            }
            return "granted";
        }, Busy::new);
        assertEquals("granted", result);
        assertEquals(3, runs.get());
    }

    @Test
    void aCommitTheTransactionManagerCouldNotCompleteIsRunAgainIntoItsResult() {
        AtomicInteger runs = new AtomicInteger();
        String result = DeadlockRetry.run(5, () -> {
            if (runs.incrementAndGet() < 3) { // a Galera certification failure at commit, as Payara reports it
                throw new EJBException("Unable to complete container-managed transaction.", new jakarta.transaction.SystemException());
            }
            return "granted";
        }, Busy::new);
        assertEquals("granted", result);
        assertEquals(3, runs.get());
    }

    @Test
    void aCommitThatKeepsFailingPassesThroughAsItselfAfterTheBoundNotAsBusy() {
        AtomicInteger runs = new AtomicInteger();
        EJBException failedCommit = new EJBException("Unable to complete container-managed transaction.", new jakarta.transaction.SystemException());
        EJBException thrown = assertThrows(EJBException.class, () -> DeadlockRetry.run(2, () -> {
            runs.incrementAndGet();
            throw failedCommit;
        }, Busy::new));
        assertSame(failedCommit, thrown, "answered as the database's failure, by the fault mapper");
        assertEquals(3, runs.get(), "the first run and two retries");
    }

    @Test
    void aDeadlockEveryTimeIsBusyAfterTheBound() {
        AtomicInteger runs = new AtomicInteger();
        assertThrows(Busy.class, () -> DeadlockRetry.run(2, () -> {
            runs.incrementAndGet();
            throw DEADLOCK;
        }, Busy::new));
        assertEquals(3, runs.get(), "the first run and two retries");
    }

    @Test
    void noRetryStartsOnceTheFirstAttemptBeganLongerAgoThanTheBoundSoTheAnswerComesWithinAClientsTimeout() {
        AtomicLong nanos = new AtomicLong(7_000_000_000L); // any origin: only differences count
        AtomicInteger runs = new AtomicInteger();
        assertThrows(Busy.class, () -> DeadlockRetry.run(5, Duration.ofSeconds(1), nanos::get, () -> {
            runs.incrementAndGet();
            nanos.addAndGet(Duration.ofMillis(600).toNanos()); // a slow attempt (a loaded machine), then it loses
            throw DEADLOCK;
        }, Busy::new));
        assertEquals(2, runs.get(), "retried at 0.6 s (+ a pause of at most 20 ms), not at 1.2 s: five retries were left");
    }

    @Test
    void quickLosersAreRetriedUpToTheCountWithinTheBound() {
        AtomicLong nanos = new AtomicLong();
        AtomicInteger runs = new AtomicInteger();
        String result = DeadlockRetry.run(5, Duration.ofSeconds(1), nanos::get, () -> {
            nanos.addAndGet(Duration.ofMillis(10).toNanos());
            if (runs.incrementAndGet() < 6) {
                throw new EJBException(DEADLOCK);
            }
            return "granted";
        }, Busy::new);
        assertEquals("granted", result, "the sixth attempt, 50 ms of attempts and no more than 460 ms of pauses in");
        assertEquals(6, runs.get());
    }

    @Test
    void aLockWaitPastItsTimeoutIsBusyAtOnce() {
        AtomicInteger runs = new AtomicInteger();
        assertThrows(Busy.class, () -> DeadlockRetry.run(5, () -> {
            runs.incrementAndGet();
            throw LOCK_TIMEOUT;
        }, Busy::new));
        assertEquals(1, runs.get(), "a timed-out wait is not run again: it waited its bound already");
    }

    @Test
    void anyOtherFailurePassesThroughUntouched() {
        PersistenceException other = new PersistenceException(new SQLException("Duplicate entry", "23000", 1062));
        assertSame(other, assertThrows(PersistenceException.class, () -> DeadlockRetry.run(5, () -> {
            throw other;
        }, Busy::new)));
        IllegalStateException refusal = new IllegalStateException("a business refusal");
        assertSame(refusal, assertThrows(IllegalStateException.class, () -> DeadlockRetry.run(5, () -> {
            throw refusal;
        }, Busy::new)));
    }
}
