package dev.keyright.seats.leases.entity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.keyright.seats.database.Migrations;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The heartbeat's statement ({@link Lease#RENEW_IF_HELD_AND_LIVE}) on the real schema (the migrations, on H2): it
 * renews exactly the leases {@link Liveness} calls live, at the rule's boundary to the millisecond, of the right
 * license, and never a released (lingering) one.
 */
class RenewStatementTest {

    private static final Instant NOW = Instant.parse("2026-12-04T10:00:00Z");
    private static final Duration SKEW = Duration.ofSeconds(5);
    private static final Instant NEW_EXPIRY = NOW.plusSeconds(120);

    private Connection connection;

    @BeforeEach
    void schema() throws SQLException {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:renew-" + System.nanoTime() + ";MODE=MariaDB;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1"); // as the embedded default
        Migrations.migrate(h2);
        connection = h2.getConnection();
        try (Statement sql = connection.createStatement()) {
            sql.execute("SET REFERENTIAL_INTEGRITY FALSE");
        }
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    @Test
    void renewsALeaseLiveAtTheVeryEdgeOfTheSkew() throws SQLException {
        Instant edge = NOW.minus(SKEW); // now == expiresAt + skew: live
        assertEquals(true, Liveness.isLive(edge, NOW, SKEW));
        lease("lease_a", "lic_1", edge, null);
        assertEquals(1, renew("lease_a", "lic_1"));
        assertEquals(NEW_EXPIRY.toEpochMilli(), expiresAt("lease_a"));
    }

    @Test
    void leavesALeaseOneMillisecondPastTheSkew() throws SQLException {
        Instant past = NOW.minus(SKEW).minusMillis(1);
        assertEquals(false, Liveness.isLive(past, NOW, SKEW));
        lease("lease_b", "lic_1", past, null);
        assertEquals(0, renew("lease_b", "lic_1"));
        assertEquals(past.toEpochMilli(), expiresAt("lease_b"));
    }

    @Test
    void leavesAReleasedSeatThatLingers() throws SQLException {
        lease("lease_c", "lic_1", NOW.plusSeconds(60), NOW.minusSeconds(1));
        assertEquals(0, renew("lease_c", "lic_1"));
    }

    @Test
    void leavesAnotherLicensesLease() throws SQLException {
        lease("lease_d", "lic_2", NOW.plusSeconds(60), null);
        assertEquals(0, renew("lease_d", "lic_1"));
        assertEquals(0, renew("lease_nope", "lic_1"));
        assertEquals(NOW.plusSeconds(60).toEpochMilli(), expiresAt("lease_d"));
    }

    private int renew(String leaseId, String licenseId) throws SQLException {
        try (PreparedStatement renew = connection.prepareStatement(Lease.RENEW_IF_HELD_AND_LIVE)) {
            renew.setLong(1, NEW_EXPIRY.toEpochMilli());
            renew.setString(2, leaseId);
            renew.setString(3, licenseId);
            renew.setLong(4, Liveness.oldestLiveExpiry(NOW, SKEW).toEpochMilli());
            return renew.executeUpdate();
        }
    }

    private void lease(String id, String licenseId, Instant expiresAt, Instant releasedAt) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO lease (id, license_id, client_instance_id,"
                + " acquired_at, expires_at, released_at) VALUES (?, ?, ?, ?, ?, ?)")) {
            insert.setString(1, id);
            insert.setString(2, licenseId);
            insert.setString(3, "inst-" + id);
            insert.setLong(4, NOW.minusSeconds(600).toEpochMilli());
            insert.setLong(5, expiresAt.toEpochMilli());
            if (releasedAt == null) {
                insert.setNull(6, java.sql.Types.BIGINT);
            } else {
                insert.setLong(6, releasedAt.toEpochMilli());
            }
            insert.executeUpdate();
        }
    }

    private long expiresAt(String id) throws SQLException {
        try (PreparedStatement read = connection.prepareStatement("SELECT expires_at FROM lease WHERE id = ?")) {
            read.setString(1, id);
            try (ResultSet row = read.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }
}
