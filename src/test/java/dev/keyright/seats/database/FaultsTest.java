package dev.keyright.seats.database;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.ejb.EJBException;
import jakarta.persistence.PersistenceException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import org.junit.jupiter.api.Test;

/** Database failures are classified the same however deeply the container and JPA wrap them. */
class FaultsTest {

    private static RuntimeException wrapped(SQLException cause) {
        return new EJBException(new PersistenceException("wrapper", new RuntimeException("provider", cause)));
    }

    @Test
    void aDeadlockIsRetriedNotReportedAsALockTimeout() {
        RuntimeException deadlock = wrapped(new SQLException("Deadlock found", "40001", 1213));
        assertTrue(Faults.isDeadlock(deadlock));
        assertFalse(Faults.isLockTimeout(deadlock));
    }

    @Test
    void lockWaitTimeoutsOnMariaDbAndH2AreLockTimeouts() {
        assertTrue(Faults.isLockTimeout(wrapped(new SQLException("Lock wait timeout exceeded", "HY000", 1205))));
        assertTrue(Faults.isLockTimeout(wrapped(new SQLException("Timeout trying to lock table", "HYT00", 50200))));
        assertTrue(Faults.isLockTimeout(new EJBException(new jakarta.persistence.PessimisticLockException("locked"))));
        assertFalse(Faults.isDeadlock(wrapped(new SQLException("Lock wait timeout exceeded", "HY000", 1205))));
    }

    @Test
    void aCommitTheTransactionManagerCouldNotCompleteIsAFailedCommit() {
        assertTrue(Faults.isFailedCommit(new EJBException("Unable to complete container-managed transaction.",
                new jakarta.transaction.SystemException())));
        assertFalse(Faults.isFailedCommit(wrapped(new SQLException("Duplicate entry", "23000", 1062))));
    }

    @Test
    void lostConnectionsMeanTheDatabaseIsUnavailable() {
        assertTrue(Faults.isDatabaseUnavailable(wrapped(new SQLNonTransientConnectionException("socket closed", "08000"))));
        assertTrue(Faults.isDatabaseUnavailable(wrapped(new SQLException("Communications link failure", "08S01"))));
        Throwable atCommit = new jakarta.transaction.RollbackException("Transaction marked for rollback.")
                .initCause(new PersistenceException("flush", new SQLException(new SQLException("Connection closed"))));
        assertTrue(Faults.isDatabaseUnavailable(new EJBException((Exception) atCommit)),
                "the pool's closed connection, met at commit while the database restarts");
        assertTrue(Faults.isDatabaseUnavailable(new EJBException(new jakarta.transaction.SystemException())),
                "the transaction manager could not enlist a connection the restarting database dropped");
        assertFalse(Faults.isDatabaseUnavailable(wrapped(new SQLException("Connection closed", "23000"))));
        assertFalse(Faults.isDatabaseUnavailable(wrapped(new SQLException("Duplicate entry", "23000", 1062))));
        assertFalse(Faults.isDatabaseUnavailable(new IllegalStateException("bug")));
    }
}
