package dev.keyright.seats.database;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

/** Classifies database failures by SQLState and vendor code, whichever driver and wrapper carried them. */
public final class Faults {

    private static final int MARIADB_LOCK_WAIT_TIMEOUT = 1205;
    private static final int MARIADB_DEADLOCK = 1213;
    private static final int H2_LOCK_TIMEOUT = 50200;
    private static final int H2_DEADLOCK = 40001;
    private static final int MARIADB_DUPLICATE_KEY = 1062;
    private static final int H2_DUPLICATE_KEY = 23505;

    private Faults() {
    }

    /** A deadlock or serialization failure (also a Galera certification failure): retry the transaction. */
    public static boolean isDeadlock(Throwable e) {
        return sqlExceptions(e).anyMatch(s -> s.getErrorCode() == MARIADB_DEADLOCK
                || s.getErrorCode() == H2_DEADLOCK || "40001".equals(s.getSQLState()));
    }

    /**
     * A commit the transaction manager could not complete. A Galera certification failure at commit arrives so:
     * Payara logs the driver's deadlock (RAR5031) and the EJB container passes on a bare {@code SystemException}
     * whose chain no longer holds it.
     */
    public static boolean isFailedCommit(Throwable e) {
        return chain(e).anyMatch(t -> t instanceof jakarta.transaction.SystemException || t instanceof jakarta.transaction.RollbackException);
    }

    /** An insert that another transaction's committed row already holds the key of. */
    public static boolean isDuplicateKey(Throwable e) {
        return sqlExceptions(e).anyMatch(s -> s.getErrorCode() == MARIADB_DUPLICATE_KEY
                || s.getErrorCode() == H2_DUPLICATE_KEY || "23505".equals(s.getSQLState()));
    }

    /** A lock wait that ran past its bound. */
    public static boolean isLockTimeout(Throwable e) {
        if (chain(e).anyMatch(t -> t instanceof jakarta.persistence.PessimisticLockException
                || t instanceof jakarta.persistence.LockTimeoutException) && !isDeadlock(e)) {
            return true;
        }
        return sqlExceptions(e).anyMatch(s -> s.getErrorCode() == MARIADB_LOCK_WAIT_TIMEOUT
                || s.getErrorCode() == H2_LOCK_TIMEOUT || "HYT00".equals(s.getSQLState()));
    }

    /**
     * The database cannot be reached (connection refused, lost, pool exhausted), including the transaction
     * manager's bare {@code SystemException} when it cannot enlist a pooled connection the database dropped
     * (seen on Payara while MariaDB restarts: RAR5031 "Socket error", then SystemException at the EJB call).
     */
    public static boolean isDatabaseUnavailable(Throwable e) {
        return chain(e).anyMatch(t -> t instanceof SQLTransientConnectionException
                || t instanceof java.sql.SQLNonTransientConnectionException
                || t instanceof java.net.ConnectException
                || (t instanceof SQLException s && s.getSQLState() != null && s.getSQLState().startsWith("08"))
                || isClosedPooledConnection(t)
                || (t instanceof jakarta.resource.ResourceException)
                || (t instanceof jakarta.transaction.SystemException)
                || (t != null && t.getClass().getName().endsWith("PoolingException")));
    }

    /**
     * The pool's own "Connection closed" (no SQLState), thrown when a statement runs on a pooled connection
     * that the pool has already destroyed because the database went away (Payara/GlassFish
     * {@code ConnectionHolder.checkValidity}), for example at commit while MariaDB restarts.
     */
    private static boolean isClosedPooledConnection(Throwable t) {
        return t instanceof SQLException s && s.getSQLState() == null && "Connection closed".equals(s.getMessage());
    }

    public static String rootMessage(Throwable e) {
        Throwable root = root(e);
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }

    /** The deepest cause: the driver's or the network's own failure. */
    public static Throwable root(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }

    private static java.util.stream.Stream<Throwable> chain(Throwable e) {
        java.util.List<Throwable> all = new java.util.ArrayList<>();
        for (Throwable t = e; t != null && all.size() < 32; t = t.getCause()) {
            all.add(t);
            if (t instanceof SQLException s && s.getNextException() != null) {
                all.add(s.getNextException());
            }
        }
        return all.stream();
    }

    private static java.util.stream.Stream<SQLException> sqlExceptions(Throwable e) {
        return chain(e).filter(SQLException.class::isInstance).map(SQLException.class::cast);
    }
}
