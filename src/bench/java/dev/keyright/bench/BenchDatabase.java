package dev.keyright.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * The benchmark's own databases on the shared MariaDB: {@code keyright_bench_<run>} for the server (its
 * Flyway migrations create the schema) and {@code keyright_bench_<run>_floor} for the JDBC floor (the same
 * migration scripts, applied here), both owned by a fresh user {@code keyright_bench_<run>}. Dropped with
 * the user on close. Never touches any other database.
 */
final class BenchDatabase implements AutoCloseable {

    private final BenchConfig config;
    final String serverDb;
    final String floorDb;
    final String user;
    final String password;
    private boolean dropped;

    private BenchDatabase(BenchConfig config, String run) {
        this.config = config;
        this.serverDb = "keyright_bench_" + run;
        this.floorDb = "keyright_bench_" + run + "_floor";
        this.user = "keyright_bench_" + run;
        this.password = "kb" + FloorTarget.randomHex(12);
    }

    static BenchDatabase create(BenchConfig config) throws SQLException {
        String run = Long.toString(System.currentTimeMillis() / 1000 % 100_000_000L, 36) + FloorTarget.randomHex(2);
        BenchDatabase db = new BenchDatabase(config, run);
        try (Connection root = db.root(); Statement s = root.createStatement()) {
            s.execute("CREATE DATABASE `" + db.serverDb + "` CHARACTER SET utf8mb4");
            s.execute("CREATE DATABASE `" + db.floorDb + "` CHARACTER SET utf8mb4");
            s.execute("CREATE USER '" + db.user + "'@'127.0.0.1' IDENTIFIED BY '" + db.password + "'");
            s.execute("GRANT ALL PRIVILEGES ON `" + db.serverDb + "`.* TO '" + db.user + "'@'127.0.0.1'");
            s.execute("GRANT ALL PRIVILEGES ON `" + db.floorDb + "`.* TO '" + db.user + "'@'127.0.0.1'");
        } catch (SQLException e) {
            db.close();
            throw e;
        }
        return db;
    }

    private Connection root() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", config.dbRootUser());
        p.setProperty("password", config.dbRootPassword());
        return new org.mariadb.jdbc.Driver().connect("jdbc:mariadb://" + config.dbHost() + ":" + config.dbPort() + "/", p);
    }

    /** The server's Flyway scripts (V1, V2, ...) applied to the floor database, in version order. */
    void migrateFloor(FloorTarget floor) throws IOException, SQLException {
        List<Path> scripts;
        try (Stream<Path> files = Files.list(config.migrations())) {
            scripts = new ArrayList<>(files.filter(p -> p.getFileName().toString().matches("V\\d+__.*\\.sql")).toList());
        }
        scripts.sort(Comparator.comparingInt(p -> Integer.parseInt(p.getFileName().toString().replaceAll("^V(\\d+)__.*", "$1"))));
        if (scripts.isEmpty()) {
            throw new IllegalStateException("no migrations in " + config.migrations());
        }
        try (Connection c = floor.connect(); Statement s = c.createStatement()) {
            for (Path script : scripts) {
                StringBuilder sql = new StringBuilder();
                for (String line : Files.readAllLines(script)) {
                    String trimmed = line.strip();
                    if (!trimmed.startsWith("--")) {
                        sql.append(line).append('\n');
                    }
                }
                for (String statement : sql.toString().split(";")) {
                    if (!statement.isBlank()) {
                        s.execute(statement);
                    }
                }
            }
        }
    }

    /**
     * Drops both databases and the user. Safe to call twice; never throws. MariaDB may be restarting (other
     * test suites on a shared machine restart it), so a failed drop is tried again, 6 times 5 s apart at most.
     */
    @Override
    public synchronized void close() {
        if (dropped) {
            return;
        }
        dropped = true;
        for (int attempt = 1; ; attempt++) {
            try (Connection root = root(); Statement s = root.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS `" + serverDb + "`");
                s.execute("DROP DATABASE IF EXISTS `" + floorDb + "`");
                s.execute("DROP USER IF EXISTS '" + user + "'@'127.0.0.1'");
                return;
            } catch (SQLException e) {
                if (attempt >= 6) {
                    System.err.println("[bench] could not drop " + serverDb + ", " + floorDb + " or user " + user + ": "
                            + e.getMessage() + "; drop them by hand: DROP DATABASE `" + serverDb + "`; DROP DATABASE `"
                            + floorDb + "`; DROP USER '" + user + "'@'127.0.0.1';");
                    return;
                }
                System.err.println("[bench] dropping " + serverDb + " failed (" + e.getMessage() + "); trying again in 5 s");
                try {
                    Thread.sleep(5000);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
