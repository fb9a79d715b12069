package dev.keyright.seats.leases.control;

import dev.keyright.seats.configuration.KeyrightConfig;
import dev.keyright.seats.database.Databases;
import dev.keyright.seats.leases.entity.Lease;
import dev.keyright.seats.leases.entity.Liveness;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.PersistenceException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import javax.sql.DataSource;

/**
 * A heartbeat's one round trip: {@link Lease#RENEW_IF_HELD_AND_LIVE} on a pooled connection in auto-commit, on the
 * database the persistence unit uses ({@link Databases#choose}). It takes the lease row's lock only for that
 * statement; the liveness bound comes from {@link Liveness}. A database fault is thrown as a
 * {@link PersistenceException} around the driver's error, so it is answered like any other (503 when the database
 * is down or the row is locked past the lock wait).
 */
@ApplicationScoped
public class Heartbeats {

    @Inject
    KeyrightConfig config;

    private volatile DataSource dataSource;

    /** Whether the lease was held and live, and now expires at {@code newExpiry}. */
    public boolean renewIfHeldAndLive(Lease lease, Instant newExpiry, Instant now, Duration skew) {
        try (Connection connection = dataSource().getConnection();
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
        } catch (SQLException e) {
            throw new PersistenceException("The heartbeat could not be written", e);
        }
    }

    private DataSource dataSource() {
        DataSource known = dataSource;
        if (known == null) {
            known = Databases.choose(config).dataSource();
            dataSource = known;
        }
        return known;
    }
}
