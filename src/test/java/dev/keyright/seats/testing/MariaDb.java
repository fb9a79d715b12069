package dev.keyright.seats.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Makes sure MariaDB runs on 127.0.0.1:3306 (starting it when it is down) and gives each test class a
 * fresh, empty database of its own, before Arquillian deploys. Never depends on leftovers.
 * Register it before the Arquillian extension.
 */
public class MariaDb implements BeforeAllCallback {

    public static final String URL = System.getProperty("it.db.url", "jdbc:mariadb://127.0.0.1:3306/keyright_it");
    public static final String USER = System.getProperty("it.db.user", "keyright_it");
    public static final String PASSWORD = System.getProperty("it.db.password", "keyright_it");
    private static final String SERVER = "jdbc:mariadb://127.0.0.1:3306/";

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        ensureRunning();
        recreate(databaseName());
    }

    public static String databaseName() {
        String path = URL.substring(URL.lastIndexOf('/') + 1);
        int query = path.indexOf('?');
        return query < 0 ? path : path.substring(0, query);
    }

    public static Connection connect() throws SQLException {
        return DriverManager.getConnection(URL, USER, PASSWORD);
    }

    public static void ensureRunning() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!listening()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("MariaDB did not start on 127.0.0.1:3306 within 60 s");
            }
            if (!serverProcessAlive()) {
                // Only when no mariadbd is left: one still shutting down would make --oknodo do nothing.
                new ProcessBuilder("start-stop-daemon", "--start", "--oknodo", "--background",
                        "--exec", "/usr/sbin/mariadbd", "--", "--user=mysql").inheritIO().start().waitFor();
            }
            Thread.sleep(200);
        }
    }

    private static boolean serverProcessAlive() {
        return ProcessHandle.allProcesses().anyMatch(p -> p.info().command()
                .map(command -> command.endsWith("/mariadbd") || command.endsWith("/mysqld")).orElse(false));
    }

    /** A connection as root (no database): for what the tests' own user may not read, such as InnoDB's status. */
    public static Connection connectAsRoot() throws SQLException {
        return DriverManager.getConnection(SERVER, "root", "");
    }

    /**
     * Waits (up to 10 s) until a statement of the server's on this test database is running whose text is
     * {@code LIKE statementLike}: a statement blocked on a row lock the test holds, say. Fails with {@code what()}.
     */
    public static void awaitStatement(String statementLike, java.util.function.Supplier<String> what) throws Exception {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        try (Connection root = connectAsRoot();
             java.sql.PreparedStatement running = root.prepareStatement("SELECT COUNT(*) FROM information_schema.PROCESSLIST"
                     + " WHERE DB = ? AND INFO LIKE ?")) {
            running.setString(1, databaseName());
            running.setString(2, statementLike);
            while (true) {
                try (java.sql.ResultSet rows = running.executeQuery()) {
                    rows.next();
                    if (rows.getLong(1) > 0) {
                        return;
                    }
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("not within 10 s: " + what.get());
                }
                Thread.sleep(20);
            }
        }
    }

    /** Shuts MariaDB down (as root) and starts it again the way this machine does; returns when it listens. */
    /** Shuts MariaDB down and waits until it is gone (start it again with {@link #ensureRunning}). */
    public static void stop() throws Exception {
        try (Connection root = DriverManager.getConnection(SERVER, "root", ""); Statement sql = root.createStatement()) {
            sql.execute("SHUTDOWN");
        }
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (listening() || serverProcessAlive()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("MariaDB did not stop within 60 s");
            }
            Thread.sleep(100);
        }
    }

    private static boolean listening() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", 3306), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Drops and creates the database and its user, as root over TCP or, failing that, the unix socket. */
    public static void recreate(String database) throws Exception {
        List<String> statements = List.of(
                "DROP DATABASE IF EXISTS " + database,
                "CREATE DATABASE " + database + " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin",
                "CREATE USER IF NOT EXISTS '" + USER + "'@'127.0.0.1' IDENTIFIED BY '" + PASSWORD + "'",
                "CREATE USER IF NOT EXISTS '" + USER + "'@'localhost' IDENTIFIED BY '" + PASSWORD + "'",
                "GRANT ALL PRIVILEGES ON " + database + ".* TO '" + USER + "'@'127.0.0.1'",
                "GRANT ALL PRIVILEGES ON " + database + ".* TO '" + USER + "'@'localhost'");
        try (Connection root = DriverManager.getConnection(SERVER, "root", "");
             Statement sql = root.createStatement()) {
            for (String statement : statements) {
                sql.execute(statement);
            }
        } catch (SQLException tcpRefused) {
            Process mariadb = new ProcessBuilder("mariadb", "-uroot", "-e", String.join(";", statements))
                    .redirectErrorStream(true).start();
            String output = new String(mariadb.getInputStream().readAllBytes());
            if (mariadb.waitFor() != 0) {
                throw new IllegalStateException("Cannot create the test database as root: " + output, tcpRefused);
            }
        }
    }
}
