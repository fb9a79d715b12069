package dev.keyright.bench;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/** The benchmark's settings: system properties {@code bench.*}, each with a default that suits a 2-core machine. */
record BenchConfig(
        Path basedir,
        Path outDir,
        Path war,
        Path payaraJar,
        Path driverJar,
        Path asadmin,
        Path migrations,
        int seconds,
        int warmupSeconds,
        int initialWarmupSeconds,
        int threads,
        int port,
        String dbHost,
        int dbPort,
        String dbRootUser,
        String dbRootPassword,
        int bootTimeoutSeconds,
        int spreadLicenses,
        int renewLicenses,
        int renewLeasesPerLicense,
        int mixedTtlSeconds,
        int mixedChurnPerSecond,
        boolean idempotencyKeys,
        boolean floor,
        Set<String> scenarios,
        String serverJvmArgs,
        Path serverJava,
        boolean jfr,
        int maxMinutes,
        int httpClients,
        boolean plainClient,
        int soakSeconds,
        int soakSampleSeconds) {

    static final Set<String> ALL_SCENARIOS = Set.of("ping", "hot", "spread", "renew", "mixed", "queue", "soak");

    /**
     * The server's JVM options: by default the production sizing of {@code server-config/jvm.options}
     * (a java launcher argument file, as docs/DEPLOYMENT.md starts a node); {@code none} runs it with the JVM's defaults.
     */
    private static String serverJvmArgs(Path basedir) {
        String args = text("bench.serverJvmArgs", "@" + basedir.resolve("server-config/jvm.options"));
        return args.equals("none") ? "" : args;
    }

    static BenchConfig fromSystemProperties() {
        Path basedir = Path.of(text("bench.basedir", System.getProperty("user.dir"))).toAbsolutePath().normalize();
        Path target = basedir.resolve("target");
        Set<String> scenarios = new LinkedHashSet<>(Arrays.asList(text("bench.scenarios", "ping,hot,spread,renew,mixed,queue").split(",")));
        scenarios.removeIf(String::isBlank);
        for (String s : scenarios) {
            if (!ALL_SCENARIOS.contains(s)) {
                throw new IllegalArgumentException("bench.scenarios: unknown scenario '" + s + "' (known: " + ALL_SCENARIOS + ")");
            }
        }
        if ((scenarios.contains("mixed") || scenarios.contains("soak")) && !scenarios.contains("renew")) {
            scenarios.add("renew"); // mixed heartbeats the 10,000 leases the renew scenario set up
        }
        int seconds = integer("bench.seconds", 20, 1, 3600);
        return new BenchConfig(
                basedir,
                path("bench.out", target.resolve("bench")),
                path("bench.war", target.resolve("keyright-seats.war")),
                path("bench.payaraJar", Path.of(System.getProperty("bench.payaraJar.default", target.resolve("payara-micro-6.2025.10.jar").toString()))),
                path("bench.driverJar", target.resolve("lib/mariadb-java-client-3.5.11.jar")),
                path("bench.asadmin", Path.of(System.getProperty("bench.asadmin.default", basedir.resolve("server-config/mariadb.asadmin").toString()))),
                path("bench.migrations", basedir.resolve("src/main/resources/db/migration")),
                seconds,
                integer("bench.warmup", Math.min(5, Math.max(1, seconds / 4)), 0, 600),
                integer("bench.initialWarmup", Math.min(60, Math.max(5, 3 * seconds)), 0, 600),
                integer("bench.threads", 16, 1, 256),
                integer("bench.port", 18480, 1024, 65535),
                text("bench.db.host", "127.0.0.1"),
                integer("bench.db.port", 3306, 1, 65535),
                text("bench.db.rootUser", "root"),
                text("bench.db.rootPassword", ""),
                integer("bench.bootTimeout", 120, 10, 1800),
                integer("bench.spread.licenses", 1000, 1, 100_000),
                integer("bench.renew.licenses", 10, 1, 1000),
                integer("bench.renew.leasesPerLicense", 1000, 1, 100_000),
                integer("bench.mixed.ttl", 6, 2, 86_400),
                integer("bench.mixed.churn", 20, 0, 10_000),
                bool("bench.idempotencyKey", true),
                bool("bench.floor", true),
                scenarios,
                serverJvmArgs(basedir),
                path("bench.serverJava", Path.of(System.getProperty("java.home"))),
                bool("bench.jfr", false),
                integer("bench.maxMinutes", 30, 1, 600),
                integer("bench.httpClients", 1, 1, 256),
                client(),
                integer("bench.soak.seconds", 900, 60, 36_000),
                integer("bench.soak.sampleSeconds", 30, 5, 600));
    }

    int renewLeases() {
        return renewLicenses * renewLeasesPerLicense;
    }

    /** The server's and the floor's URL alike; {@code bench.db.urlOptions} adds driver options to both (e.g. {@code useServerPrepStmts=true}). */
    String jdbcUrl(String database) {
        String options = text("bench.db.urlOptions", "");
        return "jdbc:mariadb://" + dbHost + ":" + dbPort + "/" + database + "?sessionVariables=innodb_lock_wait_timeout=3"
                + (options.isEmpty() ? "" : "&" + options);
    }

    private static String text(String name, String fallback) {
        String value = System.getProperty(name);
        return value == null || value.isBlank() ? fallback : value.trim();
    }

    private static Path path(String name, Path fallback) {
        String value = System.getProperty(name);
        return value == null || value.isBlank() ? fallback : Path.of(value).toAbsolutePath().normalize();
    }

    /**
     * {@code bench.client}: {@code jdk} (the default, java.net.http.HttpClient, as in every run of record) or
     * {@code plain} ({@link PlainHttp}: a third of the generator's CPU, no change in the server's figures measured,
     * docs/BENCHMARK.md round 13).
     */
    private static boolean client() {
        String client = text("bench.client", "jdk");
        return switch (client) {
            case "plain" -> true;
            case "jdk" -> false;
            default -> throw new IllegalArgumentException("bench.client must be plain or jdk, not '" + client + "'");
        };
    }

    private static boolean bool(String name, boolean fallback) {
        String value = System.getProperty(name);
        return value == null || value.isBlank() ? fallback : Boolean.parseBoolean(value.trim());
    }

    private static int integer(String name, int fallback, int min, int max) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        int parsed;
        try {
            parsed = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be an integer, not '" + value + "'");
        }
        if (parsed < min || parsed > max) {
            throw new IllegalArgumentException(name + " must be between " + min + " and " + max + ", not " + parsed);
        }
        return parsed;
    }
}
