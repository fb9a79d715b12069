package dev.keyright.seats.monitoring.boundary;

import dev.keyright.seats.configuration.KeyrightConfig;
import dev.keyright.seats.database.ChosenDatabase;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;

/**
 * Asks the database whether it answers and what time it thinks it is. Several nodes must agree on
 * time within the skew allowance; this makes a node's drift from the database visible.
 */
@Singleton
@jakarta.ejb.ConcurrencyManagement(jakarta.ejb.ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class DatabaseProbe {

    @Inject
    KeyrightConfig config;
    @Inject
    Clock clock;
    @Inject
    ChosenDatabase database;

    public Reading read() {
        try (Connection connection = database.dataSource().getConnection(); Statement sql = connection.createStatement()) {
            sql.setQueryTimeout(5);
            if (connection.getMetaData().getDatabaseProductName().contains("H2")) {
                try (ResultSet ignored = sql.executeQuery("SELECT 1")) {
                    return new Reading(true, 0); // embedded: the database reads this JVM's clock
                }
            }
            long before = clock.millis();
            try (ResultSet rows = sql.executeQuery("SELECT ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000)")) {
                long after = clock.millis();
                rows.next();
                long database = rows.getLong(1);
                return new Reading(true, (before + after) / 2 - database);
            }
        } catch (SQLException | RuntimeException e) {
            return new Reading(false, 0);
        }
    }

    /** Drift above half the default skew deserves a warning: past the full skew, nodes disagree on expiry. */
    public boolean driftWarning(Reading reading) {
        return Math.abs(reading.driftMillis()) * 2 > config.defaultSkewSeconds() * 1000L;
    }

    /** Whether the database answered, and this node's clock minus the database's. */
    public record Reading(boolean reachable, long driftMillis) {
    }
}
