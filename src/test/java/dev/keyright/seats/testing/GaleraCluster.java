package dev.keyright.seats.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A three-node MariaDB Galera cluster on 127.0.0.1, made and unmade by {@code src/test/galera/galera-cluster.sh}
 * (three {@code mariadbd} of their own, data under {@code /tmp}, every wait bounded), with one database and
 * the tests' user on it. Multi-primary: each node takes writes.
 */
public final class GaleraCluster implements AutoCloseable {

    public static final int NODES = 3;
    private static final Path SCRIPT = Path.of("src/test/galera/galera-cluster.sh");

    private final Path directory;
    private final int base;
    private final String database;

    private GaleraCluster(Path directory, int base, String database) {
        this.directory = directory;
        this.base = base;
        this.database = database;
    }

    /** Bootstraps the cluster (node 1 first, then the others by state transfer) and creates {@code database}. */
    public static GaleraCluster start(String database) throws Exception {
        Path directory = Files.createTempDirectory("keyright-galera-");
        directory.toFile().setReadable(true, false);
        directory.toFile().setExecutable(true, false);
        GaleraCluster cluster = new GaleraCluster(directory, freeBase(), database);
        try {
            cluster.run("start", String.valueOf(cluster.base));
            try (Connection root = cluster.connectAsRoot(1); Statement sql = root.createStatement()) {
                sql.execute("CREATE DATABASE " + database + " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin");
                sql.execute("CREATE USER '" + MariaDb.USER + "'@'127.0.0.1' IDENTIFIED BY '" + MariaDb.PASSWORD + "'");
                sql.execute("GRANT ALL PRIVILEGES ON " + database + ".* TO '" + MariaDb.USER + "'@'127.0.0.1'");
            }
            return cluster;
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }

    /** The client port of node {@code n} (1-based). */
    public int port(int n) {
        return base + 10 * n;
    }

    /** What a Keyright node on Galera node {@code n} is given as {@code KEYRIGHT_DB_URL}. */
    public String jdbcUrl(int n) {
        return "jdbc:mariadb://127.0.0.1:" + port(n) + "/" + database + "?sessionVariables=innodb_lock_wait_timeout=1";
    }

    public List<String> jdbcUrls() {
        List<String> urls = new ArrayList<>();
        for (int n = 1; n <= NODES; n++) {
            urls.add(jdbcUrl(n));
        }
        return urls;
    }

    public Connection connectAsRoot(int n) throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port(n) + "/", "root", "");
    }

    /**
     * A number read on node {@code n} once it has applied everything the cluster committed before the read
     * ({@code wsrep_sync_wait = 1}): what that node would answer, not what it happened to have applied yet.
     */
    public long count(int n, String sql, Object... parameters) {
        try (Connection connection = DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port(n) + "/" + database
                + "?sessionVariables=wsrep_sync_wait=1", MariaDb.USER, MariaDb.PASSWORD)) {
            return Tables.count(connection, sql, parameters);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Certification failures and brute-force aborts so far, summed over the nodes that are up: how often a
     * transaction lost to a conflicting one committed through another node.
     */
    public long conflicts() {
        long sum = 0;
        for (int n = 1; n <= NODES; n++) {
            try (Connection root = connectAsRoot(n); Statement sql = root.createStatement();
                 ResultSet rows = sql.executeQuery("SHOW GLOBAL STATUS WHERE Variable_name IN"
                         + " ('wsrep_local_cert_failures', 'wsrep_local_bf_aborts')")) {
                while (rows.next()) {
                    sum += rows.getLong(2);
                }
            } catch (SQLException down) {
                // a node that is down has nothing to add
            }
        }
        return sum;
    }

    /** SIGKILL of node {@code n}'s mariadbd: a crash, no shutdown. */
    public void kill(int n) throws Exception {
        run("kill", String.valueOf(n));
    }

    /** Starts node {@code n} again; returns when it has caught up (IST or SST) and is Synced in a cluster of three. */
    public void rejoin(int n) throws Exception {
        run("rejoin", String.valueOf(n));
    }

    public String status(int n) throws Exception {
        return run("status", String.valueOf(n)).trim();
    }

    @Override
    public void close() {
        try {
            run("stop");
        } catch (Exception e) {
            throw new IllegalStateException("the Galera cluster in " + directory + " did not stop", e);
        }
    }

    private String run(String command, String... arguments) throws Exception {
        List<String> line = new ArrayList<>(List.of("bash", SCRIPT.toString(), command, directory.toString()));
        line.addAll(List.of(arguments));
        Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(180, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("galera-cluster.sh " + command + " did not end within 180 s");
        }
        String text = new String(output);
        if (process.exitValue() != 0) {
            throw new IllegalStateException("galera-cluster.sh " + command + " failed: " + text);
        }
        return text;
    }

    /** A port base whose twelve derived ports (client, group communication, IST, SST per node) are free now. */
    private static int freeBase() throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int base = ThreadLocalRandom.current().nextInt(200, 400) * 100;
            if (allFree(base)) {
                return base;
            }
        }
        throw new IllegalStateException("no free port base for a Galera cluster");
    }

    private static boolean allFree(int base) {
        for (int n = 1; n <= NODES; n++) {
            for (int offset = 0; offset < 4; offset++) {
                try (ServerSocket probe = new ServerSocket(base + 10 * n + offset, 1, java.net.InetAddress.getLoopbackAddress())) {
                    probe.getLocalPort();
                } catch (IOException taken) {
                    return false;
                }
            }
        }
        return true;
    }
}
