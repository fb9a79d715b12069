package dev.keyright.bench;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * The raw JDBC floor: per operation, the same SQL statements, in the same order and the same transaction
 * shape as the server issues them (taken from the JDBC pool's SQL trace of the server, see
 * docs/BENCHMARK.md), on the same MariaDB, with one plain JDBC connection per worker thread at READ
 * COMMITTED and no HTTP, no app server, no token signing, no key HMAC. Transactions are demarcated the
 * way the container's local transactions are: {@code setAutoCommit(false)} ... {@code commit()} ...
 * {@code setAutoCommit(true)}.
 *
 * <p>Two floors: the <b>reference floor</b>, the statement list traced on 2026-12-03 (issue 20's baseline, frozen, so
 * that a server issuing fewer statements counts as progress against it), and the <b>re-traced floor</b>
 * ({@code retraced}), what the server issues now where it changed since: a heartbeat is one conditional
 * {@code UPDATE} in auto-commit (the license and the lease's fixed facts from the node's memory, the lease read once);
 * acquire and release are the reference list in both.
 */
final class FloorTarget implements SeatTarget {

    static final String LICENSE_COLUMNS = "ID, CHECKOUTS, created_at, CUSTOMER, key_hash, last_checkout_at, not_after, PRODUCT, SEATS, skew_seconds, STATUS, ttl_seconds";
    static final String LEASE_COLUMNS = "ID, acquired_at, client_instance_id, expires_at, holder_host, holder_user, license_id";

    // Seats.acquire -> Licenses.authenticate (no transaction), then Checkout.checkout (one transaction)
    static final String LICENSE_BY_KEY_HASH = "SELECT " + LICENSE_COLUMNS + " FROM license WHERE (key_hash = ?)";
    static final String LOCK_LICENSE = "SELECT " + LICENSE_COLUMNS + " FROM license WHERE (ID = ?) FOR UPDATE";
    static final String IDEMPOTENCY_BY_ID = "SELECT ID, BODY, created_at, FINGERPRINT, idem_key, license_id, LOCATION, STATUS FROM idempotency_record WHERE (ID = ?)";
    static final String LEASE_BY_INSTALL = "SELECT " + LEASE_COLUMNS + " FROM lease WHERE ((license_id = ?) AND (client_instance_id = ?))";
    static final String COUNT_LIVE = "SELECT COUNT(ID) FROM lease WHERE ((license_id = ?) AND (expires_at >= ?))";
    static final String INSERT_IDEMPOTENCY = "INSERT INTO idempotency_record (ID, BODY, created_at, FINGERPRINT, idem_key, license_id, LOCATION, STATUS) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
    static final String INSERT_LEASE = "INSERT INTO lease (ID, acquired_at, client_instance_id, expires_at, holder_host, holder_user, license_id) VALUES (?, ?, ?, ?, ?, ?, ?)";
    static final String INSERT_EVENT = "INSERT INTO lease_event (ID, at_millis, client_instance_id, ended_at, holder_host, holder_user, KIND, lease_id, license_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
    static final String BUMP_LICENSE = "UPDATE license SET CHECKOUTS = ?, last_checkout_at = ? WHERE (ID = ?)";
    // Seats.renew (one transaction)
    static final String LOCK_LEASE = "SELECT " + LEASE_COLUMNS + " FROM lease WHERE (ID = ?) FOR UPDATE";
    static final String COUNT_ENDINGS = "SELECT COUNT(ID) FROM lease_event WHERE (((lease_id = ?) AND (license_id = ?)) AND KIND IN (?, ?, ?))";
    static final String RENEW_LEASE = "UPDATE lease SET expires_at = ? WHERE (ID = ?)";
    // Seats.release (one transaction)
    static final String MARK_GRANT_ENDED = "UPDATE lease_event SET ended_at = ? WHERE ((lease_id = ?) AND (KIND = ?))";
    static final String LEASE_EXISTS = "SELECT ID FROM lease WHERE (ID = ?)";
    static final String DELETE_LEASE = "DELETE FROM lease WHERE (ID = ?)";
    // Re-traced (the server since 2026-12-04): Seats.renew's one statement, the server's own constant, in auto-commit,
    // and the first renew of a lease on a node reads it once (KnownLeases)
    static final String RENEW_IF_HELD_AND_LIVE = dev.keyright.seats.leases.entity.Lease.RENEW_IF_HELD_AND_LIVE;
    static final String LEASE_BY_ID = "SELECT " + LEASE_COLUMNS + " FROM lease WHERE (ID = ?)";

    private static final int DEADLOCK = 1213;
    private static final int LOCK_WAIT_TIMEOUT = 1205;
    private static final int DEADLOCK_RETRIES = 5;
    private static final String TOKEN_FILLER = "x".repeat(480);

    private final String url;
    private final Properties credentials = new Properties();
    private final boolean idempotencyKeys;
    private final boolean cachedRenewCounts;
    private final boolean retraced;
    /** Re-traced: as the server's RecentLicenses, a license read by its key hash is used for a second. */
    private final Map<String, Recent> recentLicenses = new ConcurrentHashMap<>();
    /** Re-traced: as the server's KnownLeases, the leases this node has read once. */
    private final Map<String, Boolean> knownLeases = new ConcurrentHashMap<>();
    /** As the server's RecentCounts: the renew's seats-in-use figure is recounted at most once a second per license. */
    private final Map<String, Long> lastCountAt = new ConcurrentHashMap<>();

    FloorTarget(String url, String user, String password, boolean idempotencyKeys, boolean cachedRenewCounts) {
        this(url, user, password, idempotencyKeys, cachedRenewCounts, false);
    }

    private FloorTarget(String url, String user, String password, boolean idempotencyKeys, boolean cachedRenewCounts,
                        boolean retraced) {
        this.retraced = retraced;
        this.url = url;
        this.credentials.setProperty("user", user);
        this.credentials.setProperty("password", password);
        this.idempotencyKeys = idempotencyKeys;
        this.cachedRenewCounts = cachedRenewCounts;
    }

    /** The re-traced floor on the same database (see the class comment). */
    FloorTarget retraced() {
        return new FloorTarget(url, credentials.getProperty("user"), credentials.getProperty("password"), idempotencyKeys,
                cachedRenewCounts, true);
    }

    @Override
    public String name() {
        return retraced ? "floor-retraced" : "floor";
    }

    Connection connect() throws SQLException {
        Connection c = new org.mariadb.jdbc.Driver().connect(url, credentials);
        c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        return c;
    }

    @Override
    public Session open() throws SQLException {
        return new FloorSession(connect());
    }

    @Override
    public List<License> createLicenses(String product, int count, int seats, int ttlSeconds) throws SQLException {
        List<License> licenses = new ArrayList<>(count);
        try (Connection c = connect();
             PreparedStatement insert = c.prepareStatement("INSERT INTO license (id, product, key_hash, seats, ttl_seconds,"
                     + " skew_seconds, status, customer, not_after, created_at, checkouts, last_checkout_at)"
                     + " VALUES (?, ?, ?, ?, ?, 5, 'active', NULL, NULL, ?, 0, NULL)")) {
            for (int i = 0; i < count; i++) {
                String name = count == 1 ? product : product + "-" + i;
                String key = "FLOR-" + randomHex(16);
                License license = new License("lic_" + randomHex(16), name, key, sha256(key), seats);
                insert.setString(1, license.id());
                insert.setString(2, name);
                insert.setString(3, license.keyHash());
                insert.setInt(4, seats);
                insert.setInt(5, ttlSeconds);
                insert.setLong(6, System.currentTimeMillis());
                insert.addBatch();
                licenses.add(license);
            }
            insert.executeBatch();
        }
        return licenses;
    }

    @Override
    public void changeTtl(License license, int ttlSeconds) throws SQLException {
        try (Connection c = connect(); PreparedStatement update = c.prepareStatement("UPDATE license SET ttl_seconds = ? WHERE id = ?")) {
            update.setInt(1, ttlSeconds);
            update.setString(2, license.id());
            update.executeUpdate();
        }
    }

    @Override
    public void close() {
    }

    static String randomHex(int bytes) {
        byte[] b = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private record Recent(Row row, long readAtNanos) {
    }

    /** The license columns the server reads. */
    private record Row(String id, String product, int seats, int ttlSeconds, int skewSeconds, String status, long checkouts) {
    }

    private final class FloorSession implements Session {

        private final Connection c;
        private final Map<String, PreparedStatement> statements = new HashMap<>();

        FloorSession(Connection c) {
            this.c = c;
        }

        private PreparedStatement sql(String sql) throws SQLException {
            PreparedStatement ps = statements.get(sql);
            if (ps == null) {
                ps = c.prepareStatement(sql);
                statements.put(sql, ps);
            }
            return ps;
        }

        private Row license(String sql, String parameter) throws SQLException {
            PreparedStatement ps = sql(sql);
            ps.setString(1, parameter);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                return new Row(rs.getString(1), rs.getString(8), rs.getInt(9), rs.getInt(12), rs.getInt(10), rs.getString(11), rs.getLong(2));
            }
        }

        @Override
        public Call acquire(License license, String clientInstanceId) {
            long now = System.currentTimeMillis();
            try {
                Row authenticated = license(LICENSE_BY_KEY_HASH, license.keyHash());
                if (authenticated == null || !authenticated.product().equals(license.product())) {
                    return Call.of(401);
                }
                if (!"active".equals(authenticated.status())) {
                    return Call.of(403);
                }
                String leaseId = "lease_" + randomHex(16);
                long expiresAt = (now / 1000 + authenticated.ttlSeconds()) * 1000;
                String idemKey = idempotencyKeys ? java.util.UUID.randomUUID().toString() : null;
                for (int attempt = 0; ; attempt++) {
                    c.setAutoCommit(false);
                    try {
                        Call outcome = checkout(license, clientInstanceId, leaseId, now, expiresAt, idemKey);
                        if (outcome.status() == 409) {
                            c.rollback();
                            c.setAutoCommit(true);
                            recordDenial(license, clientInstanceId, now);
                            return outcome;
                        }
                        c.commit();
                        return outcome;
                    } catch (SQLException e) {
                        rollbackQuietly();
                        if (e.getErrorCode() == DEADLOCK && attempt < DEADLOCK_RETRIES) {
                            LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(1_000_000L, 20_000_000L) << Math.min(attempt, 3));
                            continue;
                        }
                        if (e.getErrorCode() == DEADLOCK || e.getErrorCode() == LOCK_WAIT_TIMEOUT) {
                            return Call.of(503);
                        }
                        throw e;
                    } finally {
                        if (!c.getAutoCommit()) {
                            c.setAutoCommit(true);
                        }
                    }
                }
            } catch (SQLException | RuntimeException e) {
                return Call.failed(e);
            }
        }

        private Call checkout(License license, String clientInstanceId, String leaseId, long now, long expiresAt, String idemKey)
                throws SQLException {
            Row locked = license(LOCK_LICENSE, license.id());
            if (locked == null) {
                return Call.of(401);
            }
            String idemId = null;
            if (idemKey != null) {
                idemId = sha256(license.id() + "\n" + idemKey);
                PreparedStatement earlier = sql(IDEMPOTENCY_BY_ID);
                earlier.setString(1, idemId);
                try (ResultSet rs = earlier.executeQuery()) {
                    if (rs.next()) {
                        return Call.granted(200, rs.getString(1)); // a replay; never happens with fresh keys
                    }
                }
            }
            PreparedStatement byInstall = sql(LEASE_BY_INSTALL);
            byInstall.setString(1, license.id());
            byInstall.setString(2, clientInstanceId);
            try (ResultSet rs = byInstall.executeQuery()) {
                if (rs.next()) {
                    return Call.of(-3); // a returning install; the scenarios always use fresh client ids
                }
            }
            long live = countLive(license.id(), now - locked.skewSeconds() * 1000L);
            if (live >= locked.seats()) {
                return Call.of(409);
            }
            if (idemKey != null) {
                PreparedStatement record = sql(INSERT_IDEMPOTENCY);
                record.setString(1, idemId);
                record.setString(2, body(leaseId, expiresAt, locked, live + 1));
                record.setLong(3, now);
                record.setString(4, randomHex(32));
                record.setString(5, idemKey);
                record.setString(6, license.id());
                record.setString(7, "/v1/seats/" + leaseId);
                record.setInt(8, 201);
                record.executeUpdate();
            }
            PreparedStatement lease = sql(INSERT_LEASE);
            lease.setString(1, leaseId);
            lease.setLong(2, now);
            lease.setString(3, clientInstanceId);
            lease.setLong(4, expiresAt);
            lease.setNull(5, java.sql.Types.VARCHAR);
            lease.setNull(6, java.sql.Types.VARCHAR);
            lease.setString(7, license.id());
            lease.executeUpdate();
            insertEvent("GRANT", leaseId, license.id(), clientInstanceId, now);
            PreparedStatement bump = sql(BUMP_LICENSE);
            bump.setLong(1, locked.checkouts() + 1);
            bump.setLong(2, now);
            bump.setString(3, license.id());
            bump.executeUpdate();
            return Call.granted(201, leaseId);
        }

        private void recordDenial(License license, String clientInstanceId, long now) throws SQLException {
            c.setAutoCommit(false);
            try {
                insertEvent("DENY", null, license.id(), clientInstanceId, now);
                c.commit();
            } finally {
                c.setAutoCommit(true);
            }
        }

        private void insertEvent(String kind, String leaseId, String licenseId, String clientInstanceId, long at) throws SQLException {
            PreparedStatement event = sql(INSERT_EVENT);
            event.setString(1, "ev_" + randomHex(16));
            event.setLong(2, at);
            event.setString(3, clientInstanceId);
            event.setNull(4, java.sql.Types.BIGINT);
            event.setNull(5, java.sql.Types.VARCHAR);
            event.setNull(6, java.sql.Types.VARCHAR);
            event.setString(7, kind);
            if (leaseId == null) {
                event.setNull(8, java.sql.Types.VARCHAR);
            } else {
                event.setString(8, leaseId);
            }
            event.setString(9, licenseId);
            event.executeUpdate();
        }

        private long countLive(String licenseId, long oldestLiveExpiry) throws SQLException {
            PreparedStatement count = sql(COUNT_LIVE);
            count.setString(1, licenseId);
            count.setLong(2, oldestLiveExpiry);
            try (ResultSet rs = count.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }

        /** A body of the size the server stores (the acquire response with its ~480-character token). */
        private String body(String leaseId, long expiresAt, Row license, long inUse) {
            return "{\"leaseId\":\"" + leaseId + "\",\"token\":\"" + TOKEN_FILLER + "\",\"expiresAt\":\""
                    + java.time.Instant.ofEpochMilli(expiresAt) + "\",\"ttlSeconds\":" + license.ttlSeconds()
                    + ",\"renewAfterSeconds\":" + Math.max(1, license.ttlSeconds() / 3) + ",\"seatsInUse\":" + inUse
                    + ",\"maxSeats\":" + license.seats() + "}";
        }

        /** The license by its key hash, read at most once a second per key (re-traced: the server's RecentLicenses). */
        private Row recentLicense(String keyHash) throws SQLException {
            long now = System.nanoTime();
            Recent recent = recentLicenses.get(keyHash);
            if (recent != null && now - recent.readAtNanos() < 1_000_000_000L) {
                return recent.row();
            }
            Row row = license(LICENSE_BY_KEY_HASH, keyHash);
            if (row != null) {
                recentLicenses.put(keyHash, new Recent(row, now));
            }
            return row;
        }

        @Override
        public Call renew(License license, String leaseId) {
            return retraced ? renewInOneStatement(license, leaseId) : inOneTransaction(now -> renewIn(license, leaseId, now));
        }

        /**
         * Re-traced renew (the server's Seats.renew since 2026-12-04): no transaction; the license from the last
         * second's copy, the lease read once per node, then one conditional UPDATE; only when it changes nothing is
         * the lease read to tell 410 from 404. A deadlock victim is run again, as the server does.
         */
        private Call renewInOneStatement(License license, String leaseId) {
            long now = System.currentTimeMillis();
            try {
                Row authenticated = recentLicense(license.keyHash());
                if (authenticated == null) {
                    return Call.of(401);
                }
                if (knownLeases.putIfAbsent(leaseId, Boolean.TRUE) == null) {
                    PreparedStatement read = sql(LEASE_BY_ID);
                    read.setString(1, leaseId);
                    try (ResultSet rs = read.executeQuery()) {
                        if (!rs.next() || !rs.getString(7).equals(authenticated.id())) {
                            knownLeases.remove(leaseId);
                            return Call.of(404);
                        }
                    }
                }
                PreparedStatement renew = sql(RENEW_IF_HELD_AND_LIVE);
                renew.setLong(1, (now / 1000 + authenticated.ttlSeconds()) * 1000);
                renew.setString(2, leaseId);
                renew.setString(3, authenticated.id());
                renew.setLong(4, now - authenticated.skewSeconds() * 1000L);
                for (int attempt = 0; ; attempt++) {
                    try {
                        if (renew.executeUpdate() == 0) {
                            knownLeases.remove(leaseId);
                            return Call.of(endedHere(leaseId, authenticated.id()) ? 410 : 404);
                        }
                        break;
                    } catch (SQLException e) {
                        if (e.getErrorCode() == DEADLOCK && attempt < 3) {
                            continue;
                        }
                        if (e.getErrorCode() == DEADLOCK || e.getErrorCode() == LOCK_WAIT_TIMEOUT) {
                            return Call.of(503);
                        }
                        throw e;
                    }
                }
                if (countDue(authenticated.id(), now)) {
                    countLive(authenticated.id(), now - authenticated.skewSeconds() * 1000L);
                }
                return Call.of(200);
            } catch (SQLException | RuntimeException e) {
                return Call.failed(e);
            }
        }

        /** What the server's renew and release run as: one transaction, a lock failure answered 503. */
        private Call inOneTransaction(Work work) {
            long now = System.currentTimeMillis();
            try {
                c.setAutoCommit(false);
                try {
                    Call outcome = work.at(now);
                    c.commit();
                    return outcome;
                } catch (SQLException e) {
                    rollbackQuietly();
                    if (e.getErrorCode() == DEADLOCK || e.getErrorCode() == LOCK_WAIT_TIMEOUT) {
                        return Call.of(503);
                    }
                    throw e;
                } finally {
                    c.setAutoCommit(true);
                }
            } catch (SQLException | RuntimeException e) {
                return Call.failed(e);
            }
        }

        private interface Work {
            Call at(long now) throws SQLException;
        }

        private Call renewIn(License license, String leaseId, long now) throws SQLException {
            Row authenticated = license(LICENSE_BY_KEY_HASH, license.keyHash());
            if (authenticated == null) {
                return Call.of(401);
            }
            PreparedStatement lock = sql(LOCK_LEASE);
            lock.setString(1, leaseId);
            String owner;
            long expiresAt;
            try (ResultSet rs = lock.executeQuery()) {
                if (!rs.next()) {
                    return Call.of(endedHere(leaseId, authenticated.id()) ? 410 : 404);
                }
                owner = rs.getString(7);
                expiresAt = rs.getLong(4);
            }
            if (!owner.equals(authenticated.id())) {
                return Call.of(404);
            }
            if (expiresAt < now - authenticated.skewSeconds() * 1000L) {
                return Call.of(410);
            }
            PreparedStatement renew = sql(RENEW_LEASE);
            renew.setLong(1, (now / 1000 + authenticated.ttlSeconds()) * 1000);
            renew.setString(2, leaseId);
            renew.executeUpdate();
            if (countDue(authenticated.id(), now)) {
                countLive(authenticated.id(), now - authenticated.skewSeconds() * 1000L);
            }
            return Call.of(200);
        }

        private boolean countDue(String licenseId, long now) {
            if (!cachedRenewCounts) {
                return true;
            }
            Long last = lastCountAt.get(licenseId);
            if (last == null || last + 1000 <= now || last > now) {
                lastCountAt.put(licenseId, now);
                return true;
            }
            return false;
        }

        private boolean endedHere(String leaseId, String licenseId) throws SQLException {
            PreparedStatement endings = sql(COUNT_ENDINGS);
            endings.setString(1, leaseId);
            endings.setString(2, licenseId);
            endings.setString(3, "RELEASE");
            endings.setString(4, "EXPIRE");
            endings.setString(5, "REVOKE");
            try (ResultSet rs = endings.executeQuery()) {
                rs.next();
                return rs.getLong(1) > 0;
            }
        }

        @Override
        public Call release(License license, String leaseId) {
            return inOneTransaction(now -> releaseIn(license, leaseId, now));
        }

        private Call releaseIn(License license, String leaseId, long now) throws SQLException {
            Row authenticated = license(LICENSE_BY_KEY_HASH, license.keyHash());
            if (authenticated == null) {
                return Call.of(401);
            }
            PreparedStatement lock = sql(LOCK_LEASE);
            lock.setString(1, leaseId);
            String clientInstanceId;
            try (ResultSet rs = lock.executeQuery()) {
                if (!rs.next() || !rs.getString(7).equals(authenticated.id())
                        || rs.getLong(4) < now - authenticated.skewSeconds() * 1000L) {
                    return Call.of(404);
                }
                clientInstanceId = rs.getString(3);
            }
            insertEvent("RELEASE", leaseId, authenticated.id(), clientInstanceId, now);
            PreparedStatement ended = sql(MARK_GRANT_ENDED);
            ended.setLong(1, now);
            ended.setString(2, leaseId);
            ended.setString(3, "GRANT");
            ended.executeUpdate();
            PreparedStatement exists = sql(LEASE_EXISTS);
            exists.setString(1, leaseId);
            try (ResultSet rs = exists.executeQuery()) {
                rs.next();
            }
            PreparedStatement delete = sql(DELETE_LEASE);
            delete.setString(1, leaseId);
            delete.executeUpdate();
            return Call.of(204);
        }

        @Override
        public Call ping() {
            try (ResultSet rs = sql("SELECT 1").executeQuery()) {
                rs.next();
                return Call.of(200);
            } catch (SQLException | RuntimeException e) {
                return Call.failed(e);
            }
        }

        private void rollbackQuietly() {
            try {
                c.rollback();
            } catch (SQLException ignored) {
                // the connection is broken; the next call reports it
            }
        }

        @Override
        public void close() {
            try {
                c.close();
            } catch (SQLException ignored) {
                // closing anyway
            }
        }
    }
}
