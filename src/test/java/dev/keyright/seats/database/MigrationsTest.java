package dev.keyright.seats.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.configuration.ConfigurationException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/**
 * The schema scripts, applied by {@link Migrations} on the embedded database's engine (in memory), and read
 * alike by Flyway, which applied them before: a database either of them migrated is up to date for the other.
 */
class MigrationsTest {

    private final InMemoryDatabase db = new InMemoryDatabase("migrations");
    private final JdbcDataSource database = db.source();
    private final List<MigrationScript> scripts = Migrations.SCRIPTS.stream().map(MigrationScript::load).toList();

    @Test
    void everyShippedScriptIsListedInOrder() throws URISyntaxException, java.io.IOException {
        Path folder = Path.of(getClass().getClassLoader().getResource(MigrationScript.LOCATION).toURI());
        try (Stream<Path> files = Files.list(folder)) {
            List<String> shipped = files.map(file -> file.getFileName().toString())
                    .sorted(java.util.Comparator.comparingInt(name -> MigrationScript.load(name).version())).toList();
            assertEquals(shipped, Migrations.SCRIPTS);
        }
        for (int i = 0; i < scripts.size(); i++) {
            assertEquals(i + 1, scripts.get(i).version(), "versions follow one another: " + scripts.get(i).fileName());
        }
    }

    @Test
    void aNewDatabaseGetsEveryTableAndAHistoryFlywayAccepts() throws SQLException {
        Migrations.migrate(database);

        assertEquals(List.of("activation", "idempotency_record", "install_block", "lease", "lease_event", "license",
                "migration_claim", "queue_entry", "schema_history", "setting", "signing_key"), tables());
        Flyway flyway = flyway().load();
        flyway.validate();
        MigrationInfo[] applied = flyway.info().applied();
        assertEquals(scripts.size(), applied.length);
        for (MigrationInfo info : applied) {
            assertTrue(info.getState().isApplied() && !info.getState().isFailed(), info.getScript() + ": " + info.getState());
        }
        assertEquals(0, flyway.migrate().migrationsExecuted, "Flyway finds nothing left to do");
    }

    @Test
    void aDatabaseFlywayMigratedIsUpToDateWithTheSameChecksums() throws SQLException {
        flyway().load().migrate();

        try (Connection connection = database.getConnection()) {
            List<SchemaHistory.Applied> rows = SchemaHistory.on(connection).applied();
            for (MigrationScript script : scripts) {
                SchemaHistory.Applied row = rows.stream().filter(r -> Integer.valueOf(script.version()).equals(r.version())).findFirst().orElseThrow();
                assertEquals(script.fileName(), row.script());
                assertEquals(script.checksum(), row.checksum(), "Flyway's checksum of " + script.fileName());
            }
            assertEquals(List.of(), Migrations.pending(scripts, rows));
        }
        Migrations.migrate(database);
        assertEquals(scripts.size(), db.count("SELECT COUNT(*) FROM schema_history WHERE type = 'SQL'"), "nothing applied twice");
    }

    @Test
    void anUpgradeFromAFlywayDatabaseAppliesOnlyTheNewerScripts() throws SQLException {
        flyway().target("3").load().migrate();
        db.execute("INSERT INTO license (id, product, key_hash, seats, ttl_seconds, skew_seconds, status, created_at, checkouts)"
                + " VALUES ('lic-1', 'cad', 'hash', 5, 120, 5, 'ACTIVE', 0, 0)");

        Migrations.migrate(database);

        assertEquals(1, db.count("SELECT COUNT(*) FROM license WHERE id = 'lic-1' AND model = 'floating'"), "the row is kept and migrated");
        assertEquals(List.of(1, 2, 3, 4, 5, 6, 7), versions());
        flyway().load().validate();
    }

    @Test
    void aScriptThatFailsIsRecordedAndTheNextStartRefusesToServe() throws SQLException {
        MigrationScript broken = new MigrationScript(8, "broken", "V8__broken.sql",
                "CREATE TABLE half_done (id INT);\nALTER TABLE no_such_table ADD COLUMN x INT;\n");
        List<MigrationScript> withBroken = new ArrayList<>(scripts);
        withBroken.add(broken);
        try (Connection connection = database.getConnection()) {
            IllegalStateException failed = assertThrows(IllegalStateException.class, () -> Migrations.migrate(connection, withBroken));
            assertTrue(failed.getMessage().contains("V8__broken.sql"), failed.getMessage());
        }
        assertEquals(1, db.count("SELECT COUNT(*) FROM schema_history WHERE script = 'V8__broken.sql' AND NOT success"));
        assertEquals(0, db.count("SELECT COUNT(*) FROM half_done"), "what ran before the failure stays: DDL commits as it goes");

        try (Connection connection = database.getConnection()) {
            ConfigurationException refused = assertThrows(ConfigurationException.class, () -> Migrations.migrate(connection, withBroken));
            assertTrue(refused.getMessage().contains("V8__broken.sql") && refused.getMessage().contains("failed part-way"), refused.getMessage());
        }
    }

    @Test
    void aScriptChangedAfterItRanIsRefused() throws SQLException {
        Migrations.migrate(database);
        db.execute("UPDATE schema_history SET checksum = checksum + 1 WHERE version = '2'");

        ConfigurationException refused = assertThrows(ConfigurationException.class, () -> Migrations.migrate(database));
        assertTrue(refused.getMessage().contains("V2__usage_history.sql"), refused.getMessage());
    }

    @Test
    void aScriptOlderThanTheSchemaButNeverAppliedIsRefused() throws SQLException {
        Migrations.migrate(database);
        db.execute("DELETE FROM schema_history WHERE version = '4'");

        ConfigurationException refused = assertThrows(ConfigurationException.class, () -> Migrations.migrate(database));
        assertTrue(refused.getMessage().contains("V4__seat_queue.sql") && refused.getMessage().contains("version 7"), refused.getMessage());
    }

    @Test
    void aSchemaNewerThanThisBuildIsServedAsItIs() throws SQLException {
        Migrations.migrate(database);
        db.execute("INSERT INTO schema_history (installed_rank, version, description, type, script, checksum, installed_by, execution_time, success)"
                + " VALUES (100, '8', 'later', 'SQL', 'V8__later.sql', 1, 'keyright', 0, TRUE)");

        Migrations.migrate(database);

        assertEquals(List.of(1, 2, 3, 4, 5, 6, 7, 8), versions());
    }

    @Test
    void statementsEndAtSemicolonsOutsideQuotesAndComments() {
        MigrationScript script = new MigrationScript(1, "x", "V1__x.sql", """
                -- a comment; not a statement
                CREATE TABLE t (a VARCHAR(9) DEFAULT 'a;b', "c;d" INT); /* a block; comment */
                INSERT INTO t (a) VALUES ('it''s; one')
                ;UPDATE t SET a = `x;y`
                """);
        assertEquals(List.of("CREATE TABLE t (a VARCHAR(9) DEFAULT 'a;b', \"c;d\" INT)",
                "INSERT INTO t (a) VALUES ('it''s; one')", "UPDATE t SET a = `x;y`"), script.statements());
    }

    @Test
    void anUnclosedQuoteIsTheScriptsFaultNotASilentlyMergedStatement() {
        MigrationScript script = new MigrationScript(1, "x", "V1__x.sql", "INSERT INTO t VALUES ('open);\nDROP TABLE t;");
        assertThrows(IllegalStateException.class, script::statements);
    }

    private org.flywaydb.core.api.configuration.FluentConfiguration flyway() {
        return Flyway.configure(getClass().getClassLoader()).dataSource(database).locations("classpath:db/migration")
                .table(Migrations.HISTORY).baselineOnMigrate(true).baselineVersion("0");
    }

    private List<String> tables() throws SQLException {
        List<String> names = new ArrayList<>();
        try (Connection connection = database.getConnection(); Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name")) {
            while (row.next()) {
                names.add(row.getString(1));
            }
        }
        return names;
    }

    private List<Integer> versions() throws SQLException {
        try (Connection connection = database.getConnection()) {
            return SchemaHistory.on(connection).applied().stream().filter(row -> "SQL".equals(row.type()))
                    .map(SchemaHistory.Applied::version).toList();
        }
    }
}
