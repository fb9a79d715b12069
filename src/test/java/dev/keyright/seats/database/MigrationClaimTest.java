package dev.keyright.seats.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.configuration.ConfigurationException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/** One node migrates at a time: the claim row, on the embedded database's engine (in memory). */
class MigrationClaimTest {

    private final InMemoryDatabase db = new InMemoryDatabase("claim");
    private final JdbcDataSource database = db.source();

    @Test
    void aSecondNodeWaitsUntilTheFirstGivesTheClaimBack() throws Exception {
        MigrationClaim first = MigrationClaim.take(database, Duration.ofSeconds(10), Clock.systemUTC());
        CompletableFuture<MigrationClaim> second = CompletableFuture.supplyAsync(
                () -> MigrationClaim.take(database, Duration.ofSeconds(10), Clock.systemUTC()));
        assertThrows(java.util.concurrent.TimeoutException.class, () -> second.get(600, TimeUnit.MILLISECONDS),
                "the second node waits while the first holds the claim");
        first.close();
        second.get(5, TimeUnit.SECONDS).close();
        assertEquals(0, db.count("SELECT COUNT(*) FROM migration_claim"));
    }

    @Test
    void aClaimHeldPastThePatienceEndsTheStartWithTheRowToDelete() {
        MigrationClaim.take(database, Duration.ofSeconds(10), Clock.systemUTC());
        ConfigurationException refused = assertThrows(ConfigurationException.class,
                () -> MigrationClaim.take(database, Duration.ofMillis(300), Clock.systemUTC()));
        assertTrue(refused.getMessage().contains("migration_claim"), refused.getMessage());
    }

    @Test
    void aClaimLeftByANodeThatDiedIsTakenOverOnceStale() throws Exception {
        Instant start = Instant.parse("2026-12-04T12:00:00Z");
        MigrationClaim.take(database, Duration.ofSeconds(10), Clock.fixed(start, ZoneOffset.UTC)); // never given back
        Clock later = Clock.fixed(start.plus(MigrationClaim.STALE).plusSeconds(1), ZoneOffset.UTC);
        MigrationClaim.take(database, Duration.ofSeconds(5), later).close();
        assertEquals(0, db.count("SELECT COUNT(*) FROM migration_claim"));
    }

    @Test
    void aNodeGivesBackOnlyItsOwnClaim() throws Exception {
        Instant start = Instant.parse("2026-12-04T12:00:00Z");
        MigrationClaim slow = MigrationClaim.take(database, Duration.ofSeconds(10), Clock.fixed(start, ZoneOffset.UTC));
        MigrationClaim taker = MigrationClaim.take(database, Duration.ofSeconds(5),
                Clock.fixed(start.plus(MigrationClaim.STALE).plusSeconds(1), ZoneOffset.UTC));
        slow.close(); // the node thought dead comes back: it must not free the claim its successor holds
        assertEquals(1, db.count("SELECT COUNT(*) FROM migration_claim"));
        taker.close();
        assertEquals(0, db.count("SELECT COUNT(*) FROM migration_claim"));
    }

    @Test
    void aDatabaseOfSomethingElseIsNamedAndANewOneIsNot() throws Exception {
        MigrationClaim.take(database, Duration.ofSeconds(1), Clock.systemUTC()).close();
        assertEquals(List.of(), MigrationClaim.foreignTables(database, Migrations.HISTORY), "only the claim's own table");
        db.execute("CREATE TABLE invoices (id INT PRIMARY KEY)");
        assertEquals(List.of("invoices"), MigrationClaim.foreignTables(database, Migrations.HISTORY));
        db.execute("CREATE TABLE schema_history (id INT PRIMARY KEY)");
        assertEquals(List.of(), MigrationClaim.foreignTables(database, Migrations.HISTORY), "a Keyright database has its history");
    }

    @Test
    void migratesANewDatabaseAndRefusesAForeignOne() throws Exception {
        Migrations.migrate(database);
        assertTrue(db.count("SELECT COUNT(*) FROM schema_history WHERE success") >= 6, "every migration ran");
        assertEquals(0, db.count("SELECT COUNT(*) FROM lease"));
        Migrations.migrate(database); // a second start: nothing to do, no claim left behind
        assertEquals(0, db.count("SELECT COUNT(*) FROM migration_claim"));

        InMemoryDatabase foreign = new InMemoryDatabase("foreign");
        foreign.execute("CREATE TABLE invoices (id INT PRIMARY KEY)");
        ConfigurationException refused = assertThrows(ConfigurationException.class, () -> Migrations.migrate(foreign.source()));
        assertTrue(refused.getMessage().contains("invoices"), refused.getMessage());
    }
}
