package dev.keyright.seats.leases.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.database.ChosenDatabase;
import dev.keyright.seats.leases.entity.Holder;
import dev.keyright.seats.leases.entity.Lease;
import dev.keyright.seats.problems.ServiceUnavailableException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransactionRollbackException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/** The heartbeat's statement runs again when InnoDB picks it as a deadlock victim, a bounded number of times. */
class HeartbeatsTest {

    private static final Instant NOW = Instant.parse("2026-12-04T10:00:00Z");
    private static final Lease LEASE = new Lease("lease_1", "lic_1", new Holder("inst-1", "ana", "ws-1"), NOW.minusSeconds(60),
            NOW.plusSeconds(60));

    private final Deque<Object> outcomes = new ArrayDeque<>(); // what each executeUpdate does: a row count or an exception
    private int statements;

    @Test
    void aDeadlockVictimIsRunAgain() {
        outcomes.add(deadlock());
        outcomes.add(1);
        assertTrue(heartbeats().renewIfHeldAndLive(LEASE, NOW.plusSeconds(120), NOW, Duration.ofSeconds(5)));
        assertEquals(2, statements);
    }

    @Test
    void aDeadlockEveryTimeIsBusyAfterTheBound() {
        for (int i = 0; i < Heartbeats.ATTEMPTS; i++) {
            outcomes.add(deadlock());
        }
        ServiceUnavailableException busy = assertThrows(ServiceUnavailableException.class,
                () -> heartbeats().renewIfHeldAndLive(LEASE, NOW.plusSeconds(120), NOW, Duration.ofSeconds(5)));
        assertEquals(Optional.of(1), busy.retryAfterSeconds());
        assertEquals(Heartbeats.ATTEMPTS, statements);
    }

    @Test
    void anUnreachableDatabaseIsUnavailableAtOnce() {
        outcomes.add(new SQLNonTransientConnectionException("Connection refused", "08000"));
        ServiceUnavailableException down = assertThrows(ServiceUnavailableException.class,
                () -> heartbeats().renewIfHeldAndLive(LEASE, NOW.plusSeconds(120), NOW, Duration.ofSeconds(5)));
        assertEquals(Optional.of(2), down.retryAfterSeconds());
        assertEquals(1, statements);
    }

    @Test
    void noRowChangedIsNotRenewed() {
        outcomes.add(0);
        assertFalse(heartbeats().renewIfHeldAndLive(LEASE, NOW.plusSeconds(120), NOW, Duration.ofSeconds(5)));
    }

    private static SQLException deadlock() {
        return new SQLTransactionRollbackException("Deadlock found when trying to get lock", "40001", 1213);
    }

    private Heartbeats heartbeats() {
        Heartbeats heartbeats = new Heartbeats();
        heartbeats.database = new ChosenDatabase((DataSource) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, args) -> method.getName().equals("getConnection") ? connection() : null));
        return heartbeats;
    }

    private Connection connection() {
        return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "prepareStatement" -> statement();
                    case "getAutoCommit" -> true;
                    default -> null;
                });
    }

    private PreparedStatement statement() {
        return (PreparedStatement) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {PreparedStatement.class},
                (proxy, method, args) -> {
                    if (!method.getName().equals("executeUpdate")) {
                        return null;
                    }
                    statements++;
                    Object outcome = outcomes.removeFirst();
                    if (outcome instanceof SQLException e) {
                        throw e;
                    }
                    return outcome;
                });
    }
}
