package dev.keyright.seats.database;

import dev.keyright.seats.configuration.ConfigurationException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * One node of an installation migrates at a time, whichever database server each node talks to. Flyway's own
 * lock does not cover that on MariaDB Galera: its named lock ({@code GET_LOCK}) is not replicated, and with
 * {@code wsrep_on} it falls back to a row lock, which is local to one Galera node too. Three nodes first
 * starting together on three Galera nodes each ran the first migration, and the losers' {@code CREATE TABLE}
 * left a failed migration in the history that stops every later start.
 *
 * <p>The claim is a committed row with a fixed key in {@value #TABLE}, inserted in its own (autocommit)
 * statement: of two servers inserting it at once, certification (Galera) or the primary key (one server)
 * fails the second, so exactly one node holds it; the others wait until it is deleted, then migrate and find
 * nothing left to do. No transaction or connection is held while waiting. A claim older than
 * {@link #STALE} was left by a node that died mid-migration and is taken over.
 */
final class MigrationClaim implements AutoCloseable {

    static final String TABLE = "migration_claim";
    static final Duration STALE = Duration.ofMinutes(10);
    private static final Logger LOG = Logger.getLogger(MigrationClaim.class.getName());

    private final DataSource dataSource;
    private final String holder;

    private MigrationClaim(DataSource dataSource, String holder) {
        this.dataSource = dataSource;
        this.holder = holder;
    }

    /** Waits (up to {@code patience}) until this node holds the claim. */
    static MigrationClaim take(DataSource dataSource, Duration patience, Clock clock) {
        String holder = UUID.randomUUID().toString();
        long deadline = System.nanoTime() + patience.toNanos();
        boolean announced = false;
        try {
            update(dataSource, "CREATE TABLE IF NOT EXISTS " + TABLE
                    + " (id INT NOT NULL PRIMARY KEY, holder VARCHAR(36) NOT NULL, claimed_at BIGINT NOT NULL)");
            while (true) {
                try {
                    update(dataSource, "INSERT INTO " + TABLE + " (id, holder, claimed_at) VALUES (1, ?, ?)", holder, clock.millis());
                    return new MigrationClaim(dataSource, holder);
                } catch (SQLException held) {
                    if (!Faults.isDuplicateKey(held) && !Faults.isDeadlock(held)) {
                        throw held;
                    }
                }
                if (!announced) {
                    LOG.info("Another node is migrating the schema; waiting for it");
                    announced = true;
                }
                takeOverIfStale(dataSource, clock);
                if (System.nanoTime() > deadline) {
                    throw new ConfigurationException("Another node has been migrating the schema for more than "
                            + patience.toSeconds() + " s (a row in " + TABLE + "); if no node is starting, delete that row");
                }
                LockSupport.parkNanos(Duration.ofMillis(200).toNanos());
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot claim the schema migration: " + Faults.rootMessage(e), e);
        }
    }

    /**
     * Tables already in the database other than this claim's, when it has no schema history: another
     * application's database, which must not be migrated over.
     */
    static List<String> foreignTables(DataSource dataSource, String historyTable) {
        try (Connection connection = dataSource.getConnection()) {
            List<String> found = tableNames(connection, "TABLE", "VIEW");
            if (found.stream().anyMatch(name -> name.equalsIgnoreCase(historyTable))) {
                return List.of();
            }
            return found.stream().filter(name -> !name.equalsIgnoreCase(TABLE)).map(name -> name.toLowerCase(Locale.ROOT)).sorted().toList();
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot list the database's tables: " + Faults.rootMessage(e), e);
        }
    }

    /** The names of the tables (of the given JDBC types) in the connection's own schema. */
    static List<String> tableNames(Connection connection, String... types) throws SQLException {
        DatabaseMetaData meta = connection.getMetaData();
        List<String> found = new ArrayList<>();
        try (ResultSet tables = meta.getTables(connection.getCatalog(), connection.getSchema(), "%", types)) {
            while (tables.next()) {
                found.add(tables.getString("TABLE_NAME"));
            }
        }
        return found;
    }

    private static void takeOverIfStale(DataSource dataSource, Clock clock) throws SQLException {
        try {
            if (update(dataSource, "DELETE FROM " + TABLE + " WHERE id = 1 AND claimed_at < ?", clock.millis() - STALE.toMillis()) > 0) {
                LOG.warning("Took over a schema migration claim older than " + STALE.toMinutes() + " minutes (its node died mid-migration)");
            }
        } catch (SQLException raced) {
            if (!Faults.isDeadlock(raced)) {
                throw raced;
            }
        }
    }

    /** One statement in a transaction of its own (autocommit): the claim is never held by an open transaction. */
    private static int update(DataSource dataSource, String sql, Object... parameters) throws SQLException {
        try (Connection connection = dataSource.getConnection(); PreparedStatement statement = connection.prepareStatement(sql)) {
            connection.setAutoCommit(true);
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            return statement.executeUpdate();
        }
    }

    /** Gives the claim back (only this node's own: a claim taken over from it stays with its new holder). */
    @Override
    public void close() {
        try {
            update(dataSource, "DELETE FROM " + TABLE + " WHERE id = 1 AND holder = ?", holder);
        } catch (SQLException e) {
            LOG.warning("Could not give back the schema migration claim (" + Faults.rootMessage(e) + "); other nodes take it over after "
                    + STALE.toMinutes() + " minutes");
        }
    }
}
