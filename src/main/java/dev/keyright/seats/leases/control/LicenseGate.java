package dev.keyright.seats.leases.control;

import dev.keyright.seats.database.RowLocks;
import dev.keyright.seats.licenses.entity.License;
import dev.keyright.seats.problems.ServiceUnavailableException;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.sql.Connection;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * One checkout transaction per license at a time from this node: the others wait here, first come first
 * served, instead of in the database's lock queue on the license row. The row lock still decides (it serializes
 * the nodes); this only keeps a burst of 200 acquires from becoming 200 waiters on one InnoDB row lock, where
 * each wait costs deadlock detection and a one-second lock timeout turns the burst into a wall of 503s. Licenses
 * share {@value #STRIPES} fair turns by hash.
 * <p>
 * A checkout enters right before it locks the license row, inside its transaction, and leaves as the
 * transaction begins to complete (or after a rollback, which skips that step). So the turn covers the
 * checkout's reads and decisions, not the transaction's start, the connection's set-up or the commit: the next
 * checkout of the license already waits on the row while this one's writes and commit finish, and it is the only
 * one of this node waiting there.
 * <p>
 * The wait has two steps. A checkout first waits at the license's door, holding nothing; at most
 * {@value #CONNECTED} checkouts of a license are past it at once. Past the door it takes its transaction's
 * connection, then waits for its turn. So the next checkouts in line are connected and ready when the turn
 * passes, while the rest of a burst holds no connection: the pool stays with the other licenses' renewals
 * (CheckoutFaultsIT: a renew answered at once during a burst of more acquires than the pool has connections).
 */
@ApplicationScoped
public class LicenseGate {

    static final int STRIPES = 64;
    /**
     * How many checkouts of a license hold a connection while they wait for its turn or have it: the one whose
     * turn it is and the next ones, ready (besides those whose commits are finishing, which left their turns as their
     * commits began and give their connections back as the commits end). More would take connections from the other
     * licenses for no gain.
     */
    static final int CONNECTED = 3;
    /**
     * How long a checkout waits here before it is told the license is busy (503, Retry-After); once through, it
     * still waits at most the database's lock timeout on the row (held by another node, or by an operator). A
     * checkout runs in about 10 ms on two cores, so a burst of 300 acquires of one license clears in about 3 s.
     */
    public static final Duration WAIT = Duration.ofSeconds(5);

    private final Semaphore[] doors = new Semaphore[STRIPES];
    private final Semaphore[] turns = new Semaphore[STRIPES];
    private final long waitNanos;

    @Resource
    TransactionSynchronizationRegistry transactions;
    @PersistenceContext
    EntityManager em;

    public LicenseGate() {
        this(WAIT);
    }

    LicenseGate(Duration wait) {
        this.waitNanos = wait.toNanos();
        for (int i = 0; i < STRIPES; i++) {
            doors[i] = new Semaphore(CONNECTED, true);
            turns[i] = new Semaphore(1, true);
        }
    }

    /**
     * The license row, locked ({@code SELECT ... FOR UPDATE}) for the rest of the current transaction once this
     * node's turn at it came; null when there is no such license. When the turn did not come within {@link #WAIT},
     * the license is busy (503, Retry-After) and nothing was {@code notDone} (granted, activated).
     */
    public License lock(String licenseId, String notDone) {
        if (!enter(licenseId)) {
            throw ServiceUnavailableException.licenseBusy(notDone);
        }
        return RowLocks.lock(em, License.LOCK, License.class, licenseId);
    }

    /**
     * Takes the transaction's connection now, past the door, before the turn. EclipseLink would take it with the license
     * lock, the transaction's first statement, and taking it is no small part of a checkout: the pool, the enlistment
     * in the transaction, {@code set autocommit=0} (a quarter of {@link #lock}'s CPU samples in docs/BENCHMARK.md
     * round 21; hot +54 % and +65 % in interleaved pairs). The checkouts ready for the turn do that meanwhile.
     * {@code unwrap(Connection.class)} is EclipseLink's way to it inside a JTA transaction (it begins the unit of
     * work's transaction early); the connection is the one the transaction's statements then use.
     */
    private void connectNow() {
        em.unwrap(Connection.class);
    }

    /**
     * Waits for this node's turn at the license for the rest of the current transaction, the connection taken on the
     * way (past the door); false when the turn did not come within {@link #WAIT} (nothing is held then, and no
     * connection was taken unless the door was passed). A transaction that holds the turn already keeps it.
     */
    boolean enter(String licenseId) {
        int index = Math.floorMod(licenseId.hashCode(), STRIPES);
        Turn held = (Turn) transactions.getResource(Turn.class);
        if (held != null && held.index == index) {
            return true;
        }
        if (held != null) {
            throw new IllegalStateException("one license turn per transaction");
        }
        long deadline = System.nanoTime() + waitNanos;
        Semaphore door = doors[index];
        if (!passed(door, waitNanos)) {
            return false;
        }
        Semaphore turn = turns[index];
        try {
            connectNow();
            if (!passed(turn, deadline - System.nanoTime())) {
                door.release();
                return false;
            }
        } catch (RuntimeException e) {
            door.release();
            throw e;
        }
        Turn taken = new Turn(index, door, turn);
        try {
            transactions.putResource(Turn.class, taken);
            transactions.registerInterposedSynchronization(taken);
        } catch (RuntimeException e) {
            taken.leave();
            throw e;
        }
        return true;
    }

    /** Whether one of the semaphore's permits was taken within the time left (none left: only one free now). */
    private static boolean passed(Semaphore semaphore, long nanos) {
        try {
            return semaphore.tryAcquire(Math.max(0, nanos), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** A transaction's turn, and its place past the door: both left once, by whichever completion step comes first. */
    private static final class Turn implements Synchronization {
        private final int index;
        private final Semaphore door;
        private final Semaphore turn;
        private boolean left;

        private Turn(int index, Semaphore door, Semaphore turn) {
            this.index = index;
            this.door = door;
            this.turn = turn;
        }

        @Override
        public void beforeCompletion() {
            leave(); // the writes and the commit are left, under the row lock
        }

        @Override
        public void afterCompletion(int status) {
            leave(); // a rollback never calls beforeCompletion
        }

        private synchronized void leave() {
            if (!left) {
                left = true;
                turn.release();
                door.release();
            }
        }
    }
}
