package dev.keyright.seats.database;

import dev.keyright.seats.configuration.ConfigurationException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * Versioned schema migrations, the same scripts for the embedded default and MariaDB. Never
 * drop-and-create: an upgrade keeps every lease. One node migrates at a time ({@link MigrationClaim}); the
 * history of what ran is {@link SchemaHistory}.
 *
 * <p>The scripts are listed here, in order, rather than found by scanning the class path: a script added
 * without its line is caught by a test (MigrationsTest), not by a deployment that misses it.
 */
public final class Migrations {

    static final String HISTORY = "schema_history";
    static final List<String> SCRIPTS = List.of(
            "V1__seats.sql",
            "V2__usage_history.sql",
            "V3__bounded_idempotency.sql",
            "V4__seat_queue.sql",
            "V5__seat_policies.sql",
            "V6__offline_use.sql",
            "V7__license_hints.sql");
    private static final Duration PATIENCE = Duration.ofMinutes(5);
    private static final Logger LOG = Logger.getLogger(Migrations.class.getName());

    private Migrations() {
    }

    public static void migrate(DataSource dataSource) {
        try (MigrationClaim claim = MigrationClaim.take(dataSource, PATIENCE, Clock.systemUTC())) {
            List<String> foreign = MigrationClaim.foreignTables(dataSource, HISTORY);
            if (!foreign.isEmpty()) {
                throw new ConfigurationException("The database already holds tables of something else (" + String.join(", ", foreign)
                        + ") and no Keyright schema history: point KEYRIGHT_DB_URL at an empty database of its own");
            }
            try (Connection connection = dataSource.getConnection()) {
                connection.setAutoCommit(true);
                migrate(connection, SCRIPTS.stream().map(MigrationScript::load).toList());
            } catch (SQLException e) {
                throw new IllegalStateException("Cannot migrate the schema: " + Faults.rootMessage(e), e);
            }
        }
    }

    static void migrate(Connection connection, List<MigrationScript> scripts) throws SQLException {
        SchemaHistory history = SchemaHistory.on(connection);
        List<SchemaHistory.Applied> rows = history.applied();
        List<MigrationScript> pending = pending(scripts, rows);
        for (MigrationScript script : pending) {
            apply(connection, history, script);
        }
        LOG.info(() -> pending.isEmpty() ? "Schema is up to date"
                : "Schema migrated to version " + pending.get(pending.size() - 1).version() + " (" + pending.size() + " migration(s) applied)");
    }

    /** The scripts still to run, after checking that the history and this build's scripts agree on the rest. */
    static List<MigrationScript> pending(List<MigrationScript> scripts, List<SchemaHistory.Applied> rows) {
        for (SchemaHistory.Applied row : rows) {
            if (!row.success()) {
                throw new ConfigurationException("The schema history records a migration that failed part-way (" + row.script()
                        + ", row in " + HISTORY + "): restore the database from the backup taken before the upgrade, or repair the "
                        + "schema by hand and delete that row");
            }
        }
        Map<Integer, SchemaHistory.Applied> applied = rows.stream().filter(row -> "SQL".equals(row.type()))
                .collect(Collectors.toMap(SchemaHistory.Applied::version, Function.identity(), (a, b) -> b));
        int reached = rows.stream().map(SchemaHistory.Applied::version).filter(Objects::nonNull).mapToInt(Integer::intValue).max().orElse(0);
        int known = scripts.stream().mapToInt(MigrationScript::version).max().orElse(0);
        if (reached > known) {
            LOG.warning("The database's schema is at version " + reached + ", newer than this build's " + known
                    + " (a later release migrated it); serving on it as it is");
        }
        List<MigrationScript> pending = new ArrayList<>();
        for (MigrationScript script : scripts) {
            SchemaHistory.Applied row = applied.get(script.version());
            if (row != null) {
                if (row.checksum() != null && row.checksum() != script.checksum()) {
                    throw new ConfigurationException("Migration " + script.fileName() + " was applied to this database with checksum "
                            + row.checksum() + ", but this build's script has " + script.checksum()
                            + ": the database was migrated by a different build of Keyright Seats");
                }
            } else if (script.version() <= reached) {
                throw new ConfigurationException("Migration " + script.fileName() + " was never applied to this database, which is at version "
                        + reached + " already: the database was migrated by a different build of Keyright Seats");
            } else {
                pending.add(script);
            }
        }
        return pending;
    }

    private static void apply(Connection connection, SchemaHistory history, MigrationScript script) throws SQLException {
        long start = System.nanoTime();
        try (Statement statement = connection.createStatement()) {
            for (String sql : script.statements()) {
                statement.execute(sql);
            }
        } catch (SQLException failed) {
            // DDL commits as it goes on both engines: what ran stays, so the row says it stopped part-way.
            history.record(script, Duration.ofNanos(System.nanoTime() - start).toMillis(), false);
            throw new IllegalStateException("Migration " + script.fileName() + " failed: " + Faults.rootMessage(failed), failed);
        }
        history.record(script, Duration.ofNanos(System.nanoTime() - start).toMillis(), true);
        LOG.fine(() -> "Schema migrated to version " + script.version() + " (" + script.description() + ")");
    }
}
