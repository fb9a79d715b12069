package dev.keyright.seats.leases.control;

import dev.keyright.seats.database.ChosenDatabase;
import dev.keyright.seats.database.Faults;
import dev.keyright.seats.leases.entity.Lease;
import dev.keyright.seats.leases.entity.Liveness;
import dev.keyright.seats.problems.ServiceUnavailableException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.PersistenceException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;

/**
 * A heartbeat's one round trip: {@link Lease#RENEW_IF_HELD_AND_LIVE} on a pooled connection in auto-commit, on the
 * database the persistence unit uses ({@link ChosenDatabase}). It takes the lease row's lock only for that
 * statement; the liveness bound comes from {@link Liveness}.
 */
@ApplicationScoped
public class Heartbeats {

    static final int ATTEMPTS = 3;

    @Inject
    ChosenDatabase database;

    /**
     * Whether the lease was held and live, and now expires at {@code newExpiry}. The statement sets one value, so
     * running it again changes nothing more: when InnoDB picks it as a deadlock victim (it waits for the lease
     * row a checkout or the reaper holds), it is run again, {@link #ATTEMPTS} times at most. A row still locked
     * past the lock wait, a deadlock every time, or a database that cannot be reached is a 503 (nothing changed).
     */
    public boolean renewIfHeldAndLive(Lease lease, Instant newExpiry, Instant now, Duration skew) {
        for (int attempt = 1; ; attempt++) {
            try {
                return renewOnce(lease, newExpiry, now, skew);
            } catch (SQLException e) {
                if (Faults.isDeadlock(e) && attempt < ATTEMPTS) {
                    continue;
                }
                if (Faults.isDeadlock(e) || Faults.isLockTimeout(e)) {
                    throw ServiceUnavailableException.leaseBusy();
                }
                if (Faults.isDatabaseUnavailable(e)) {
                    throw ServiceUnavailableException.databaseDown();
                }
                throw new PersistenceException("The heartbeat could not be written", e);
            }
        }
    }

    private boolean renewOnce(Lease lease, Instant newExpiry, Instant now, Duration skew) throws SQLException {
        try (Connection connection = database.dataSource().getConnection();
             PreparedStatement renew = connection.prepareStatement(Lease.RENEW_IF_HELD_AND_LIVE)) {
            renew.setLong(1, newExpiry.toEpochMilli());
            renew.setString(2, lease.id());
            renew.setString(3, lease.licenseId());
            renew.setLong(4, Liveness.oldestLiveExpiry(now, skew).toEpochMilli());
            int rows = renew.executeUpdate();
            if (!connection.getAutoCommit()) {
                connection.commit();
            }
            return rows == 1;
        }
    }
}
