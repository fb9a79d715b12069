package dev.keyright.seats.leases.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.problems.ServiceUnavailableException;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LicenseGateTest {

    private final Transactions transactions = new Transactions();

    @Test
    void oneCheckoutOfALicenseAtATimeAndEveryOneGetsItsTurn() throws Exception {
        LicenseGate gate = gate(Duration.ofSeconds(30));
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger mostInside = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Boolean>> runs = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                boolean rollback = i % 3 == 0;
                runs.add(pool.submit(() -> {
                    start.await();
                    Transaction tx = transactions.begin();
                    boolean entered = gate.enter("lic_one");
                    if (entered) {
                        mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                        Thread.yield();
                        inside.decrementAndGet();
                    }
                    transactions.complete(tx, !rollback);
                    return entered;
                }));
            }
            start.countDown();
            int done = 0;
            for (Future<Boolean> run : runs) {
                assertTrue(run.get(30, TimeUnit.SECONDS), "every checkout had its turn");
                done++;
            }
            assertEquals(64, done);
            assertEquals(1, mostInside.get(), "never two checkouts of one license at once from one node");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aCheckoutThatDoesNotGetItsTurnInTimeIsToldSoAndHoldsNothing() throws Exception {
        LicenseGate gate = gate(Duration.ofMillis(50));
        Transaction holder = transactions.begin();
        assertTrue(gate.enter("lic_busy"));
        transactions.detach();

        Transaction waiter = transactions.begin();
        assertFalse(gate.enter("lic_busy"), "busy: no turn");
        assertEquals(0, waiter.synchronizations.size(), "and nothing to leave");
        transactions.complete(waiter, false);

        transactions.begin();
        assertTrue(gate.enter(otherStripeThan("lic_busy")), "another license is not held up");
        transactions.complete(transactions.current(), true);

        transactions.resume(holder);
        transactions.complete(holder, true);
        Transaction next = transactions.begin();
        assertTrue(gate.enter("lic_busy"), "the turn comes once the holder's transaction completes");
        transactions.complete(next, true);
    }

    @Test
    void theTurnIsLeftAsTheCommitBeginsAndOnlyOnce() {
        LicenseGate gate = gate(Duration.ofMillis(50));
        Transaction first = transactions.begin();
        assertTrue(gate.enter("lic_a"));
        first.synchronizations.forEach(Synchronization::beforeCompletion);
        transactions.detach();

        Transaction second = transactions.begin();
        assertTrue(gate.enter("lic_a"), "the next checkout waits on the row while the first commits");
        transactions.detach();

        transactions.resume(first);
        first.synchronizations.forEach(sync -> sync.afterCompletion(Status.STATUS_COMMITTED));
        transactions.detach();
        transactions.begin();
        assertFalse(gate.enter("lic_a"), "the first transaction's completion did not give the turn twice");
        transactions.complete(transactions.current(), false);

        transactions.resume(second);
        transactions.complete(second, true);
    }

    @Test
    void aRolledBackCheckoutLeavesItsTurn() {
        LicenseGate gate = gate(Duration.ofMillis(50));
        Transaction failed = transactions.begin();
        assertTrue(gate.enter("lic_r"));
        transactions.complete(failed, false);
        Transaction next = transactions.begin();
        assertTrue(gate.enter("lic_r"));
        transactions.complete(next, true);
    }

    /**
     * A checkout takes its transaction's connection before it waits for its turn, so that the connection's set-up is
     * no part of the serialized section: here the turn never comes (another transaction holds it), and the connection
     * was taken all the same, once, and the license row was not asked for.
     */
    @Test
    void aCheckoutTakesItsConnectionBeforeItWaitsForItsTurn() {
        LicenseGate gate = gate(Duration.ofMillis(50));
        List<String> asked = new ArrayList<>();
        gate.em = (EntityManager) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {EntityManager.class},
                (proxy, method, args) -> {
                    asked.add(method.getName() + (args == null ? "" : Arrays.toString(args)));
                    return null;
                });
        Transaction holder = transactions.begin();
        assertTrue(gate.enter("lic_busy"));
        transactions.detach();
        Transaction waiting = transactions.begin();
        assertThrows(ServiceUnavailableException.class, () -> gate.lock("lic_busy", "granted"));
        assertEquals(List.of("unwrap[interface java.sql.Connection]"), asked);
        transactions.complete(waiting, false);
        transactions.resume(holder);
        transactions.complete(holder, true);
    }

    @Test
    void oneTransactionHoldsOneTurnOnly() {
        LicenseGate gate = gate(Duration.ofMillis(50));
        Transaction tx = transactions.begin();
        assertTrue(gate.enter("lic_x"));
        assertTrue(gate.enter("lic_x"), "entering again in the same transaction keeps the turn");
        assertEquals(1, tx.synchronizations.size());
        assertThrows(IllegalStateException.class, () -> gate.enter(otherStripeThan("lic_x")),
                "two licenses' turns in one transaction could deadlock two nodes");
        transactions.complete(tx, true);
    }

    private LicenseGate gate(Duration wait) {
        LicenseGate gate = new LicenseGate(wait);
        gate.transactions = transactions;
        return gate;
    }

    /** A license id on another stripe than {@code busy}. */
    private static String otherStripeThan(String busy) {
        for (int i = 0; ; i++) {
            String id = "lic_" + i;
            if (Math.floorMod(id.hashCode(), LicenseGate.STRIPES) != Math.floorMod(busy.hashCode(), LicenseGate.STRIPES)) {
                return id;
            }
        }
    }

    private static final class Transaction {
        final Map<Object, Object> resources = new HashMap<>();
        final List<Synchronization> synchronizations = new ArrayList<>();
    }

    /** The registry as a container gives it: bound to the thread's current transaction. */
    private static final class Transactions implements TransactionSynchronizationRegistry {
        private final ThreadLocal<Transaction> current = new ThreadLocal<>();

        Transaction begin() {
            Transaction tx = new Transaction();
            current.set(tx);
            return tx;
        }

        Transaction current() {
            return current.get();
        }

        void detach() {
            current.remove();
        }

        void resume(Transaction tx) {
            current.set(tx);
        }

        /** A commit calls beforeCompletion, then afterCompletion; a rollback only afterCompletion. */
        void complete(Transaction tx, boolean commit) {
            if (commit) {
                tx.synchronizations.forEach(Synchronization::beforeCompletion);
            }
            tx.synchronizations.forEach(sync -> sync.afterCompletion(commit ? Status.STATUS_COMMITTED : Status.STATUS_ROLLEDBACK));
            current.remove();
        }

        @Override
        public Object getTransactionKey() {
            return current.get();
        }

        @Override
        public void putResource(Object key, Object value) {
            current.get().resources.put(key, value);
        }

        @Override
        public Object getResource(Object key) {
            return current.get().resources.get(key);
        }

        @Override
        public void registerInterposedSynchronization(Synchronization sync) {
            current.get().synchronizations.add(sync);
        }

        @Override
        public int getTransactionStatus() {
            return current.get() == null ? Status.STATUS_NO_TRANSACTION : Status.STATUS_ACTIVE;
        }

        @Override
        public void setRollbackOnly() {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean getRollbackOnly() {
            return false;
        }
    }
}
