package dev.keyright.seats.database;

import dev.keyright.seats.configuration.ConfigurationException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * Versioned schema migrations, the same scripts for the embedded default and MariaDB. Never
 * drop-and-create: an upgrade keeps every lease. One node migrates at a time ({@link MigrationClaim}).
 */
public final class Migrations {

    static final String HISTORY = "schema_history";
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
            // A new database holds the claim's table, so Flyway would call it non-empty: its baseline at version 0
            // (below every migration) lets it start the history there; a foreign database was refused above.
            MigrateResult result = Flyway.configure(Migrations.class.getClassLoader())
                    .dataSource(dataSource)
                    .locations("classpath:db/migration")
                    .table(HISTORY)
                    .baselineOnMigrate(true)
                    .baselineVersion("0")
                    .load()
                    .migrate();
            LOG.info(() -> result.migrationsExecuted == 0 ? "Schema is up to date"
                    : "Schema migrated to version " + result.targetSchemaVersion + " (" + result.migrationsExecuted + " migration(s) applied)");
        }
    }
}
