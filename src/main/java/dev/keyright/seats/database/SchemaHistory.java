package dev.keyright.seats.database;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The table that says which migrations a database has had, {@value Migrations#HISTORY}: one row per applied
 * script. Its columns are the ones Flyway created (Keyright applied its scripts with Flyway until 2026-12-05),
 * so databases migrated before and after read alike, and a row Flyway wrote (its baseline, its table marker)
 * is simply read as history.
 */
final class SchemaHistory {

    /** A row: a script's version ({@code null} for Flyway's table marker), whether it ran to the end, its checksum. */
    record Applied(Integer version, String script, Integer checksum, boolean success, String type) {
    }

    private final Connection connection;

    private SchemaHistory(Connection connection) {
        this.connection = connection;
    }

    /** The history on this connection, created (empty) when the database has none yet. */
    static SchemaHistory on(Connection connection) throws SQLException {
        if (!exists(connection)) {
            try (Statement ddl = connection.createStatement()) {
                ddl.execute("CREATE TABLE " + Migrations.HISTORY + " ("
                        + "installed_rank INT NOT NULL, version VARCHAR(50), description VARCHAR(200) NOT NULL, "
                        + "type VARCHAR(20) NOT NULL, script VARCHAR(1000) NOT NULL, checksum INT, "
                        + "installed_by VARCHAR(100) NOT NULL, installed_on TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL, "
                        + "execution_time INT NOT NULL, success BOOLEAN NOT NULL, "
                        + "CONSTRAINT " + Migrations.HISTORY + "_pk PRIMARY KEY (installed_rank))");
                ddl.execute("CREATE INDEX " + Migrations.HISTORY + "_s_idx ON " + Migrations.HISTORY + " (success)");
            }
        }
        return new SchemaHistory(connection);
    }

    private static boolean exists(Connection connection) throws SQLException {
        return MigrationClaim.tableNames(connection, "TABLE").stream().anyMatch(Migrations.HISTORY::equalsIgnoreCase);
    }

    List<Applied> applied() throws SQLException {
        List<Applied> rows = new ArrayList<>();
        try (Statement query = connection.createStatement();
                ResultSet row = query.executeQuery("SELECT version, script, checksum, success, type FROM " + Migrations.HISTORY
                        + " ORDER BY installed_rank")) {
            while (row.next()) {
                String version = row.getString(1);
                int checksum = row.getInt(3);
                rows.add(new Applied(version == null ? null : Integer.valueOf(version), row.getString(2),
                        row.wasNull() ? null : checksum, row.getBoolean(4), row.getString(5)));
            }
        }
        return rows;
    }

    /** Records a script that ran ({@code success}) or stopped part-way. */
    void record(MigrationScript script, long millis, boolean success) throws SQLException {
        int rank;
        try (Statement query = connection.createStatement();
                ResultSet max = query.executeQuery("SELECT COALESCE(MAX(installed_rank), 0) FROM " + Migrations.HISTORY)) {
            max.next();
            rank = Math.max(max.getInt(1), 0) + 1;
        }
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + Migrations.HISTORY
                + " (installed_rank, version, description, type, script, checksum, installed_by, execution_time, success)"
                + " VALUES (?, ?, ?, 'SQL', ?, ?, ?, ?, ?)")) {
            insert.setInt(1, rank);
            insert.setString(2, Integer.toString(script.version()));
            insert.setString(3, script.description());
            insert.setString(4, script.fileName());
            insert.setInt(5, script.checksum());
            insert.setString(6, installedBy());
            insert.setInt(7, (int) Math.min(Integer.MAX_VALUE, millis));
            insert.setBoolean(8, success);
            insert.executeUpdate();
        }
    }

    private String installedBy() throws SQLException {
        String user = connection.getMetaData().getUserName();
        String name = user == null || user.isBlank() ? "keyright" : user.replaceFirst("@.*$", "");
        return name.length() > 100 ? name.substring(0, 100) : name;
    }
}
