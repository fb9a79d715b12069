package dev.keyright.seats.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Reads the MariaDB tables directly, to check that what the API said is what was stored. */
public final class Tables {

    private Tables() {
    }

    public static long count(String sql, Object... parameters) {
        try (Connection connection = MariaDb.connect()) {
            return count(connection, sql, parameters);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The one number {@code sql} selects, read on {@code connection}. */
    public static long count(Connection connection, String sql, Object... parameters) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    public static long leasesOf(String licenseId) {
        return count("SELECT COUNT(*) FROM lease WHERE license_id = ?", licenseId);
    }

    /** The license row's "may have blocks" flag: while it is clear, a checkout does not read install_block. */
    public static boolean mayHaveBlocks(String licenseId) {
        return count("SELECT COUNT(*) FROM license WHERE id = ? AND may_have_blocks = TRUE", licenseId) == 1;
    }

    /** The license row's "may have waiters" flag: while it is clear, a checkout does not read queue_entry. */
    public static boolean mayHaveWaiters(String licenseId) {
        return count("SELECT COUNT(*) FROM license WHERE id = ? AND may_have_waiters = TRUE", licenseId) == 1;
    }

    public static String leaseIdOf(String licenseId) {
        try (Connection connection = MariaDb.connect();
             PreparedStatement statement = connection.prepareStatement("SELECT id FROM lease WHERE license_id = ?")) {
            statement.setString(1, licenseId);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? rows.getString(1) : null;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A fingerprint of every row that matters, to prove a refused request changed nothing. */
    public static String snapshot() {
        return count("SELECT COUNT(*) FROM license") + "/" + count("SELECT COALESCE(SUM(CRC32(CONCAT_WS('|', id, product, seats,"
                + " ttl_seconds, skew_seconds, status, COALESCE(customer, '-'), COALESCE(not_after, -1), checkouts,"
                + " overdraft_seats, linger_seconds, COALESCE(max_per_user, -1), COALESCE(max_per_host, -1),"
                + " COALESCE(reservations, '-')))), 0) FROM license")
                + "/" + count("SELECT COUNT(*) FROM lease") + "/" + count("SELECT COALESCE(SUM(expires_at), 0) FROM lease")
                + "/" + count("SELECT COUNT(*) FROM lease_event") + "/" + count("SELECT COUNT(*) FROM idempotency_record")
                + "/" + count("SELECT COUNT(*) FROM setting") + "/" + count("SELECT COUNT(*) FROM signing_key")
                + "/" + count("SELECT COUNT(*) FROM install_block") + "/" + count("SELECT COUNT(*) FROM queue_entry");
    }
}
