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
 * served, holding no connection, instead of in the database's lock queue on the license row. The row lock
 * still decides (it serializes the nodes); this only keeps a burst of 200 acquires from becoming 200 waiters on
 * one InnoDB row lock, where each wait costs deadlock detection and a one-second lock timeout turns the burst
 * into a wall of 503s. Licenses share {@value #STRIPES} fair turns by hash.
 * <p>
 * A checkout enters right before it locks the license row, inside its transaction, and leaves as the
 * transaction begins to complete (or after a rollback, which skips that step). So the turn covers the
 * checkout's reads and decisions, not the transaction's start, the connection's set-up or the commit: the next
 * checkout of the license already waits on the row while this one's writes and commit finish, and it is the only
 * one of this node waiting there.
 */
@ApplicationScoped
public class LicenseGate {

    static final int STRIPES = 64;
    /**
     * How long a checkout waits here before it is told the license is busy (503, Retry-After); once through, it
     * still waits at most the database's lock timeout on the row (held by another node, or by an operator). A
     * checkout runs in about 10 ms on two cores, so a burst of 300 acquires of one license clears in about 3 s.
     */
    public static final Duration WAIT = Duration.ofSeconds(5);

    private final Semaphore[] stripes = new Semaphore[STRIPES];
    private final long waitMillis;

    @Resource
    TransactionSynchronizationRegistry transactions;
    @PersistenceContext
    EntityManager em;

    public LicenseGate() {
        this(WAIT);
    }

    LicenseGate(Duration wait) {
        this.waitMillis = wait.toMillis();
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Semaphore(1, true);
        }
    }

    /**
     * The license row, locked ({@code SELECT ... FOR UPDATE}) for the rest of the current transaction once this
     * node's turn at it came; null when there is no such license. When the turn did not come within {@link #WAIT},
     * the license is busy (503, Retry-After) and nothing was {@code notDone} (granted, activated).
     */
    public License lock(String licenseId, String notDone) {
        connectNow();
        if (!enter(licenseId)) {
            throw ServiceUnavailableException.licenseBusy(notDone);
        }
        return RowLocks.lock(em, License.LOCK, License.class, licenseId);
    }

    /**
     * Takes the transaction's connection now, before the turn. EclipseLink would take it with the license lock, the
     * transaction's first statement, and taking it is no small part of a checkout: the pool, the enlistment in the
     * transaction, {@code set autocommit=0} (a quarter of {@link #lock}'s CPU samples in docs/BENCHMARK.md round 21;
     * hot +54 % and +65 % in interleaved pairs). Before the turn, the checkouts waiting for it do that meanwhile.
     * {@code unwrap(Connection.class)} is EclipseLink's way to it inside a JTA transaction (it begins the unit of
     * work's transaction early); the connection is the one the transaction's statements then use.
     */
    private void connectNow() {
        em.unwrap(Connection.class);
    }

    /**
     * Waits for this node's turn at the license for the rest of the current transaction; false when it did not
     * come within {@link #WAIT} (nothing is held then). A transaction that holds the turn already keeps it.
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
        Semaphore stripe = stripes[index];
        try {
            if (!stripe.tryAcquire(waitMillis, TimeUnit.MILLISECONDS)) {
                return false;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        Turn turn = new Turn(index, stripe);
        try {
            transactions.putResource(Turn.class, turn);
            transactions.registerInterposedSynchronization(turn);
        } catch (RuntimeException e) {
            turn.leave();
            throw e;
        }
        return true;
    }

    /** A transaction's turn: left once, by whichever completion step comes first. */
    private static final class Turn implements Synchronization {
        private final int index;
        private final Semaphore stripe;
        private boolean left;

        private Turn(int index, Semaphore stripe) {
            this.index = index;
            this.stripe = stripe;
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
                stripe.release();
            }
        }
    }
}
