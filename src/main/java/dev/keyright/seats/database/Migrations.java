package dev.keyright.seats.database;

import java.util.logging.Logger;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * Versioned schema migrations, the same scripts for the embedded default and MariaDB. Never
 * drop-and-create: an upgrade keeps every lease.
 */
public final class Migrations {

    private static final Logger LOG = Logger.getLogger(Migrations.class.getName());

    private Migrations() {
    }

    public static void migrate(DataSource dataSource) {
        MigrateResult result = Flyway.configure(Migrations.class.getClassLoader())
                .dataSource(dataSource)
                .locations("classpath:db/migration")
                .table("schema_history")
                .baselineOnMigrate(false)
                .load()
                .migrate();
        LOG.info(() -> result.migrationsExecuted == 0 ? "Schema is up to date"
                : "Schema migrated to version " + result.targetSchemaVersion + " (" + result.migrationsExecuted + " migration(s) applied)");
    }
}
