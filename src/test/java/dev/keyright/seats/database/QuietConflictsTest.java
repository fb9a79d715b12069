package dev.keyright.seats.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.ejb.ApplicationException;
import jakarta.interceptor.InvocationContext;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;
import java.lang.reflect.Proxy;
import java.sql.SQLException;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

class QuietConflictsTest {

    private final QuietConflicts interceptor = new QuietConflicts();
    private int flushes;

    QuietConflictsTest() {
        interceptor.em = (EntityManager) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{EntityManager.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("flush")) {
                        flushes++;
                        return null;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void aDeadlockVictimLeavesAsALostConflictThatRollsBackAndStillReadsAsADeadlock() {
        PersistenceException deadlock = new PersistenceException(new SQLException("Deadlock found when trying to get lock", "40001", 1213));

        LostConflict lost = assertThrows(LostConflict.class, () -> interceptor.quietly(invocation(() -> { throw deadlock; })));

        assertSame(deadlock, lost.getCause());
        assertTrue(Faults.isDeadlock(lost), "DeadlockRetry still retries it");
        ApplicationException marker = LostConflict.class.getAnnotation(ApplicationException.class);
        assertNotNull(marker, "an application exception: the container neither logs nor wraps it");
        assertTrue(marker.rollback(), "and it rolls the transaction back");
    }

    @Test
    void aLockWaitPastItsBoundLeavesAsALostConflictThatStillReadsAsALockTimeout() {
        PersistenceException timeout = new PersistenceException(new SQLException("Lock wait timeout exceeded", "HY000", 1205));

        LostConflict lost = assertThrows(LostConflict.class, () -> interceptor.quietly(invocation(() -> { throw timeout; })));

        assertTrue(Faults.isLockTimeout(lost));
    }

    @Test
    void anInsertWhoseUniqueKeyAnotherTransactionCommittedLeavesAsALostConflictThatStillReadsAsADuplicate() {
        PersistenceException duplicate = new PersistenceException(new SQLException("Duplicate entry", "23000", 1062));

        LostConflict lost = assertThrows(LostConflict.class, () -> interceptor.quietly(invocation(() -> { throw duplicate; })));

        assertTrue(Faults.isDuplicateKey(lost), "StartUp still loads again what another node's first insert created");
    }

    @Test
    void anyOtherFailureAndAnAnswerPassThroughUntouched() throws Exception {
        PersistenceException missingParent = new PersistenceException(new SQLException(
                "Cannot add or update a child row: a foreign key constraint fails", "23000", 1452));
        IllegalStateException bug = new IllegalStateException("a bug");

        assertSame(missingParent, assertThrows(PersistenceException.class, () -> interceptor.quietly(invocation(() -> { throw missingParent; }))));
        assertSame(bug, assertThrows(IllegalStateException.class, () -> interceptor.quietly(invocation(() -> { throw bug; }))));
        assertEquals("granted", interceptor.quietly(invocation(() -> "granted")));
        assertEquals(1, flushes, "an answer's writes are flushed before it returns, the failures' are not");
    }

    @Test
    void aConflictMetWhenTheWritesAreFlushedBeforeReturningIsALostConflictToo() {
        PersistenceException deadlock = new PersistenceException(new SQLException("Deadlock found when trying to get lock", "40001", 1213));
        interceptor.em = (EntityManager) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{EntityManager.class},
                (proxy, method, args) -> {
                    throw deadlock;
                });

        LostConflict lost = assertThrows(LostConflict.class, () -> interceptor.quietly(invocation(() -> "granted")));

        assertSame(deadlock, lost.getCause());
    }

    @Test
    void aLostConflictIsNotWrappedTwice() {
        LostConflict lost = new LostConflict(new PersistenceException(new SQLException("Deadlock", "40001", 1213)));

        assertSame(lost, assertThrows(LostConflict.class, () -> interceptor.quietly(invocation(() -> { throw lost; }))));
        assertInstanceOf(PersistenceException.class, lost, "callers that catch PersistenceException still catch it");
    }

    private static InvocationContext invocation(Callable<Object> body) {
        return (InvocationContext) Proxy.newProxyInstance(QuietConflictsTest.class.getClassLoader(), new Class<?>[]{InvocationContext.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("proceed")) {
                        return body.call();
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }
}
