package dev.keyright.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

/**
 * The load benchmark of Keyright Seats: one Payara Micro server on its own MariaDB database, driven over
 * HTTP on 127.0.0.1, and beside it the raw JDBC floor (the same SQL on the same MariaDB, no app server),
 * scenario by scenario. Prints a table and writes target/bench/results.json. Bounded in time
 * ({@code bench.maxMinutes}); stops the server and drops its databases at the end, on failure and on
 * Ctrl-C. See docs/BENCHMARK.md.
 *
 * <pre>mvn -B -ntp -Pbench verify            # builds, then runs every scenario for 20 s
 * mvn -B -ntp -Pbench verify -Dbench.seconds=5 -Dbench.scenarios=hot,renew</pre>
 */
public final class LoadBenchmark {

    private static final String ADMIN_USER = "admin";
    /** Issue 20: boot to ready at most 1.3 times an empty WAR's on the same Payara Micro and JVM, RSS at most 400 MB at its peak. */
    private static final double BOOT_RATIO_TARGET = 1.3;
    private static final long RSS_PEAK_TARGET_MB = 400;

    private final BenchConfig config;
    private final Object cleanupLock = new Object();
    private BenchDatabase database;
    private PayaraServer server;
    private Path dataDir;
    private final List<long[]> windows = new ArrayList<>();
    private final List<String> windowNames = new ArrayList<>();

    private LoadBenchmark(BenchConfig config) {
        this.config = config;
    }

    public static void main(String[] args) throws Exception {
        BenchConfig config = BenchConfig.fromSystemProperties();
        LoadBenchmark bench = new LoadBenchmark(config);
        Thread hook = new Thread(bench::cleanUp, "bench-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(TimeUnit.MINUTES.toMillis(config.maxMinutes()));
                log("over bench.maxMinutes=" + config.maxMinutes() + ": stopping");
                bench.cleanUp();
                Runtime.getRuntime().halt(3);
            } catch (InterruptedException done) {
                // finished in time
            }
        }, "bench-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        try {
            bench.run();
        } finally {
            bench.cleanUp();
            watchdog.interrupt();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running already
            }
        }
    }

    private void run() throws Exception {
        Files.createDirectories(config.outDir());
        Path workDir = Files.createDirectories(config.outDir().resolve("server"));
        dataDir = Files.createTempDirectory("keyright-bench-data");
        Instant startedAt = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        String loadBefore = loadAverage();
        log("Keyright Seats load benchmark: " + config.threads() + " threads, " + config.seconds() + " s per scenario (+"
                + config.warmupSeconds() + " s warm-up), scenarios " + config.scenarios() + ", floor " + config.floor()
                + "; load average now " + loadBefore + " on " + Runtime.getRuntime().availableProcessors() + " CPUs");

        database = BenchDatabase.create(config);
        log("databases " + database.serverDb + " and " + database.floorDb + " (user " + database.user + ")");
        boolean cachedRenewCounts = cachedRenewCounts();
        FloorTarget floor = new FloorTarget(config.jdbcUrl(database.floorDb), database.user, database.password,
                config.idempotencyKeys(), cachedRenewCounts);
        database.migrateFloor(floor);
        FloorTarget retracedFloor = floor.retraced();

        String adminPassword = "bench-" + FloorTarget.randomHex(8);
        Map<String, String> env = new LinkedHashMap<>();
        env.put("KEYRIGHT_DB_URL", config.jdbcUrl(database.serverDb));
        env.put("KEYRIGHT_DB_USER", database.user);
        env.put("KEYRIGHT_DB_PASSWORD", database.password);
        env.put("KEYRIGHT_ADMIN_USER", ADMIN_USER);
        env.put("KEYRIGHT_ADMIN_PASSWORD", adminPassword);
        env.put("KEYRIGHT_DATA_DIR", dataDir.toString());
        env.put("KEYRIGHT_AUTH_FAILURE_LIMIT", "1000000");
        env.put("KEYRIGHT_AUTH_SLOWDOWN_AFTER", "999999");
        List<String> jvmArgs = new ArrayList<>();
        Path jfr = config.outDir().resolve("server.jfr");
        if (config.jfr()) {
            Files.deleteIfExists(jfr);
            jvmArgs.add("-XX:FlightRecorderOptions=stackdepth=256");
            jvmArgs.add("-XX:StartFlightRecording=filename=" + jfr + ",settings=profile,dumponexit=true");
        }
        Path gcLog = config.outDir().resolve("server-gc.log");
        if (config.scenarios().contains("soak")) {
            Files.deleteIfExists(gcLog);
            jvmArgs.add("-Xlog:gc:file=" + gcLog); // the soak reads the heap after each collection from it
        }
        // The boot baseline: the same command and JVM options with an empty WAR, booted and stopped first.
        double emptyWarBootSeconds;
        log("boot baseline: Payara Micro with an empty WAR on 127.0.0.1:" + config.port());
        try (PayaraServer empty = PayaraServer.startEmptyWar(config, workDir, env, List.of())) {
            emptyWarBootSeconds = empty.awaitReady(config.bootTimeoutSeconds());
        }
        log(String.format(Locale.ROOT, "empty WAR ready after %.1f s", emptyWarBootSeconds));
        log("starting Payara Micro on 127.0.0.1:" + config.port() + " (log: " + workDir.resolve("server.log") + ")");
        server = PayaraServer.start(config, workDir, env, jvmArgs);
        double bootSeconds = server.awaitReady(config.bootTimeoutSeconds());
        log(String.format(Locale.ROOT, "ready after %.1f s (pid %d, RSS %s)", bootSeconds, server.pid(), megabytes(server.procStatusKb("VmRSS"))));
        OptionalLong rssAtReady = server.procStatusKb("VmRSS");

        HttpTarget http = new HttpTarget(server.base(), ADMIN_USER, adminPassword, config.httpClients(), config.plainClient(),
                config.idempotencyKeys(), config.threads());
        Scenarios scenarios = new Scenarios(config);
        CpuMeter cpu = new CpuMeter(server.pid());
        List<Report.ScenarioResult> results = new ArrayList<>();
        Map<String, Object> cpuUse = new LinkedHashMap<>();

        log("initial warm-up (not measured): " + config.initialWarmupSeconds() + " s of ping/acquire/renew/release on each target");
        scenarios.warmUp(http, config.initialWarmupSeconds());
        if (config.floor()) {
            scenarios.warmUp(floor, config.initialWarmupSeconds());
        }

        if (config.scenarios().contains("ping")) {
            Drivers.Run s = measure("ping", http, cpu, cpuUse, () -> scenarios.ping(http));
            Drivers.Run f = config.floor() ? measure("ping", floor, cpu, cpuUse, () -> scenarios.ping(floor)) : null;
            results.add(new Report.ScenarioResult("ping", "informational: GET /.well-known/jwks.json (a cached string, no database)"
                    + " against SELECT 1 on the floor", "ping", s, f, new Report.Target(null, null, null), null, Map.of()));
        }
        if (config.scenarios().contains("hot")) {
            SeatTarget.License serverLicense = scenarios.hotLicense(http);
            Drivers.Run s = measure("hot", http, cpu, cpuUse, () -> scenarios.hot(http, serverLicense));
            Drivers.Run f = null;
            Drivers.Run r = null;
            if (config.floor()) {
                SeatTarget.License floorLicense = scenarios.hotLicense(floor);
                f = measure("hot", floor, cpu, cpuUse, () -> scenarios.hot(floor, floorLicense));
                SeatTarget.License retracedLicense = scenarios.hotLicense(retracedFloor);
                r = measure("hot", retracedFloor, cpu, cpuUse, () -> scenarios.hot(retracedFloor, retracedLicense));
            }
            results.add(new Report.ScenarioResult("hot", "acquire then release, back to back, all threads on one license "
                    + "(one operation = an acquire and its release)", "acquire+release", s, f,
                    new Report.Target(0.5, null, null), null, Map.of()).withRetraced(r));
        }
        if (config.scenarios().contains("spread")) {
            log("spread set-up: " + config.spreadLicenses() + " licenses through the admin API");
            List<SeatTarget.License> serverLicenses = scenarios.spreadLicenses(http);
            Drivers.Run s = measure("spread", http, cpu, cpuUse, () -> scenarios.spread(http, serverLicenses));
            Drivers.Run f = null;
            Drivers.Run r = null;
            if (config.floor()) {
                List<SeatTarget.License> floorLicenses = scenarios.spreadLicenses(floor);
                f = measure("spread", floor, cpu, cpuUse, () -> scenarios.spread(floor, floorLicenses));
                List<SeatTarget.License> retracedLicenses = scenarios.spreadLicenses(retracedFloor);
                r = measure("spread", retracedFloor, cpu, cpuUse, () -> scenarios.spread(retracedFloor, retracedLicenses));
            }
            results.add(new Report.ScenarioResult("spread", "acquire only, each on one of " + config.spreadLicenses()
                    + " licenses picked at random (leases stay live)", "acquire", s, f,
                    new Report.Target(0.5, null, null), null, Map.of()).withRetraced(r));
        }
        Scenarios.LivePool serverLive = null;
        Scenarios.LivePool floorLive = null;
        if (config.scenarios().contains("renew")) {
            log("renew set-up: acquiring " + config.renewLeases() + " leases on the server");
            serverLive = scenarios.livePool(http);
            log(String.format(Locale.ROOT, "  done in %.1f s", serverLive.setupSeconds()));
            Scenarios.LivePool live = serverLive;
            Drivers.Run s = measure("renew", http, cpu, cpuUse, () -> scenarios.renew(http, live));
            Drivers.Run f = null;
            Drivers.Run r = null;
            if (config.floor()) {
                log("renew set-up: acquiring " + config.renewLeases() + " leases on the floor");
                floorLive = scenarios.livePool(floor);
                Scenarios.LivePool fl = floorLive;
                f = measure("renew", floor, cpu, cpuUse, () -> scenarios.renew(floor, fl));
                // the re-traced floor renews the reference floor's leases (the same database) after it
                r = measure("renew", retracedFloor, cpu, cpuUse, () -> scenarios.renew(retracedFloor, fl));
            }
            results.add(new Report.ScenarioResult("renew", "renew of " + config.renewLeases() + " live leases ("
                    + config.renewLicenses() + " licenses x " + config.renewLeasesPerLicense() + ", TTL 1 h), round-robin, back to back",
                    "renew", s, f, new Report.Target(0.6, 50.0, null), null,
                    Map.of("setupSecondsServer", Report.round(serverLive.setupSeconds()),
                            "setupSecondsFloor", floorLive == null ? "-" : Report.round(floorLive.setupSeconds()))).withRetraced(r));
        }
        if (config.scenarios().contains("mixed")) {
            Scenarios.LivePool live = serverLive;
            double offered = scenarios.mixedRenewRate(live);
            Drivers.Run s = measure("mixed", http, cpu, cpuUse, () -> scenarios.mixed(http, live));
            Drivers.Run f = null;
            if (config.floor()) {
                Scenarios.LivePool fl = floorLive;
                f = measure("mixed", floor, cpu, cpuUse, () -> scenarios.mixed(floor, fl));
            }
            results.add(new Report.ScenarioResult("mixed", live.size() + " clients heartbeating every TTL/3 ("
                    + config.mixedTtlSeconds() + " s TTL -> every " + scenarios.mixedRenewAfterSeconds() + " s), open loop with latency from the scheduled time, plus "
                    + config.mixedChurnPerSecond() + " acquire+release/s churn on the same licenses", "renew", s, f,
                    new Report.Target(null, 50.0, 0.95), offered,
                    Map.of("ttlSeconds", config.mixedTtlSeconds(), "churnPerSecond", config.mixedChurnPerSecond())));
        }

        Map<String, Object> soakSummary = null;
        if (config.scenarios().contains("soak")) {
            Scenarios.LivePool live = serverLive;
            log("soak: " + live.size() + " leases heartbeating every " + scenarios.mixedRenewAfterSeconds() + " s plus "
                    + config.mixedChurnPerSecond() + " acquire+release/s, for " + config.soakSeconds() + " s, sampled every "
                    + config.soakSampleSeconds() + " s");
            Soak soak = new Soak(server, gcLog, config.jdbcUrl(database.serverDb), database.user, database.password);
            soak.start(config.soakSampleSeconds());
            Drivers.Run s;
            try {
                s = measure("soak", http, cpu, cpuUse, () -> scenarios.mixed(http, live, config.soakSeconds()));
            } finally {
                soak.close();
            }
            soak.lines().forEach(line -> log("  soak " + line));
            soakSummary = soak.summary();
            soakSummary.put("errors", s.recording().errorCount());
            soakSummary.put("renewalsOffered", Report.round(scenarios.mixedRenewRate(live) * s.measuredSeconds()));
            soakSummary.put("renewalsServed", s.recording().completed());
            List<String> csv = new ArrayList<>();
            csv.add("seconds,rssMb,heapAfterGcMb," + String.join(",", Soak.TABLES));
            for (Soak.Sample sample : soak.samples()) {
                StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%.0f,%.1f,%.1f", sample.seconds(),
                        sample.rssMb(), sample.heapAfterGcMb()));
                for (String table : Soak.TABLES) {
                    row.append(',').append(sample.rows().getOrDefault(table, -1L));
                }
                csv.add(row.toString());
            }
            Files.write(config.outDir().resolve("soak-samples.csv"), csv);
            results.add(new Report.ScenarioResult("soak", live.size() + " clients heartbeating every TTL/3 for "
                    + config.soakSeconds() + " s, open loop, plus " + config.mixedChurnPerSecond() + " acquire+release/s",
                    "renew", s, null, new Report.Target(null, null, 0.99), scenarios.mixedRenewRate(live),
                    Map.of("ttlSeconds", config.mixedTtlSeconds(), "churnPerSecond", config.mixedChurnPerSecond())));
        }

        QueueScenario.Result queue = null;
        if (config.scenarios().contains("queue")) {
            SeatTarget.License queueLicense = http.createLicenses("bench-queue", 1, 10, 120).get(0);
            log("queue: 100 installs waiting (Prefer: wait) for 10 seats, one release at a time, " + config.seconds() + " s");
            queue = QueueScenario.run(server.base(), queueLicense, 100, config.seconds());
            log("queue: release-to-201 hand-over " + queue.line() + "; " + serverMemory());
        }

        OptionalLong rss = server.procStatusKb("VmRSS");
        OptionalLong hwm = server.procStatusKb("VmHWM");
        String loadAfter = loadAverage();
        List<String> problems = server.problemsSinceReady();
        long serverErrors = problems.size();
        Files.write(config.outDir().resolve("server-problems.txt"), problems);

        Map<String, Object> extras = new LinkedHashMap<>();
        double bootRatio = bootSeconds / emptyWarBootSeconds;
        boolean bootMet = bootRatio <= BOOT_RATIO_TARGET;
        boolean rssMet = hwm.isPresent() && hwm.getAsLong() <= RSS_PEAK_TARGET_MB * 1024;
        extras.put("boot to ready (s)", String.format(Locale.ROOT, "%.1f, empty WAR %.1f: ratio %.2f   target <= %.1f: %s",
                bootSeconds, emptyWarBootSeconds, bootRatio, BOOT_RATIO_TARGET, bootMet ? "PASS" : "FAIL"));
        extras.put("server RSS peak (MB)", megabytes(hwm) + "   target <= " + RSS_PEAK_TARGET_MB + " MB: "
                + (hwm.isPresent() ? (rssMet ? "PASS" : "FAIL") : "n/a")
                + "   (at ready " + megabytes(rssAtReady) + ", after the runs " + megabytes(rss) + ")");
        extras.put("SEVERE/WARNING after ready", serverErrors + " (" + config.outDir().resolve("server-problems.txt") + ")");
        extras.put("load average before / after", loadBefore + " / " + loadAfter);
        extras.put("cores used (server, client, mariadbd)", cpuUse.isEmpty() ? "-" : "");
        cpuUse.forEach((k, v) -> extras.put("  " + k, v));
        extras.put("floor renew counts", cachedRenewCounts ? "once a second per license (server has RecentCounts)" : "every renew");
        if (queue != null) {
            extras.put("queue hand-over (release to waiter's 201)", queue.line() + "   target p99 < 1000 ms: "
                    + (queue.p99Millis() < 1000 && queue.handOvers() > 0 ? "PASS" : "FAIL"));
        }
        String table = Report.table(results, extras);
        System.out.println();
        System.out.println(table);

        Map<String, Object> json = new LinkedHashMap<>();
        json.put("startedAt", startedAt.toString());
        json.put("finishedAt", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        json.put("gitCommit", gitHead());
        json.put("machine", Map.of("cpus", Runtime.getRuntime().availableProcessors(),
                "loadAverageBefore", loadBefore, "loadAverageAfter", loadAfter,
                "java", System.getProperty("java.version")));
        Map<String, Object> cfg = new LinkedHashMap<>();
        cfg.put("seconds", config.seconds());
        cfg.put("warmupSeconds", config.warmupSeconds());
        cfg.put("initialWarmupSeconds", config.initialWarmupSeconds());
        cfg.put("threads", config.threads());
        cfg.put("httpClients", config.httpClients());
        cfg.put("client", config.plainClient() ? "plain" : "jdk");
        cfg.put("idempotencyKeys", config.idempotencyKeys());
        cfg.put("spreadLicenses", config.spreadLicenses());
        cfg.put("renewLicenses", config.renewLicenses());
        cfg.put("renewLeasesPerLicense", config.renewLeasesPerLicense());
        cfg.put("mixedTtlSeconds", config.mixedTtlSeconds());
        cfg.put("mixedChurnPerSecond", config.mixedChurnPerSecond());
        cfg.put("floorRenewCountsCached", cachedRenewCounts);
        cfg.put("serverJvmArgs", config.serverJvmArgs());
        cfg.put("serverJava", config.serverJava().toString());
        json.put("config", cfg);
        List<Object> scenarioJson = new ArrayList<>();
        results.forEach(r -> scenarioJson.add(Report.json(r)));
        json.put("scenarios", scenarioJson);
        if (queue != null) {
            json.put("queue", queue.json());
        }
        if (soakSummary != null) {
            json.put("soak", soakSummary);
        }
        Map<String, Object> srv = new LinkedHashMap<>();
        srv.put("bootToReadySeconds", Report.round(bootSeconds));
        srv.put("emptyWarBootToReadySeconds", Report.round(emptyWarBootSeconds));
        srv.put("bootRatio", Report.round(bootRatio));
        srv.put("bootTarget", "<= " + BOOT_RATIO_TARGET + " x the empty WAR's boot");
        srv.put("bootResult", bootMet ? "PASS" : "FAIL");
        srv.put("rssKbAtReady", rssAtReady.isPresent() ? rssAtReady.getAsLong() : null);
        srv.put("rssKbAfterRuns", rss.isPresent() ? rss.getAsLong() : null);
        srv.put("rssKbPeak", hwm.isPresent() ? hwm.getAsLong() : null);
        srv.put("rssTarget", "peak <= " + RSS_PEAK_TARGET_MB + " MB");
        srv.put("rssResult", hwm.isPresent() ? (rssMet ? "PASS" : "FAIL") : "n/a");
        srv.put("severeOrWarningLogRecordsAfterReady", serverErrors);
        srv.put("log", server.log().toString());
        json.put("server", srv);
        json.put("coresUsed", cpuUse);
        Map<String, Object> win = new LinkedHashMap<>();
        for (int i = 0; i < windows.size(); i++) {
            win.put(windowNames.get(i), Map.of("startEpochMs", windows.get(i)[0], "endEpochMs", windows.get(i)[1]));
        }
        json.put("windows", win);
        Path out = config.outDir().resolve("results.json");
        Report.writeJson(out, json);
        Files.writeString(config.outDir().resolve("results.txt"), table);
        log("wrote " + out);

        server.close();
        if (config.jfr() && Files.isRegularFile(jfr)) {
            String profile = ProfileSummary.summarize(jfr, windowNames, windows);
            Files.writeString(config.outDir().resolve("profile.txt"), profile);
            System.out.println(profile);
            log("wrote " + config.outDir().resolve("profile.txt") + " (recording: " + jfr + ")");
        }
    }

    private interface Body {
        Drivers.Run run() throws Exception;
    }

    private Drivers.Run measure(String scenario, SeatTarget target, CpuMeter cpu, Map<String, Object> cpuUse, Body body) throws Exception {
        log(scenario + " on the " + target.name() + " (" + config.warmupSeconds() + " s warm-up + " + config.seconds() + " s)");
        long[] before = cpu.snapshot();
        long wallStart = System.nanoTime();
        long startMs = System.currentTimeMillis();
        Drivers.Run run = body.run();
        long endMs = System.currentTimeMillis();
        double wall = (System.nanoTime() - wallStart) / 1e9;
        long[] after = cpu.snapshot();
        windows.add(new long[] {startMs, endMs});
        windowNames.add(scenario + "@" + target.name());
        String use = String.format(Locale.ROOT, "%.2f, %.2f, %.2f", cpu.cores(before, after, 0, wall),
                cpu.cores(before, after, 1, wall), cpu.cores(before, after, 2, wall));
        cpuUse.put(scenario + " on " + target.name(), use);
        log(String.format(Locale.ROOT, "  %.0f ops/s, %d errors; cores used (server, client, mariadbd): %s; %s",
                run.recording().completed() / run.measuredSeconds(), run.recording().errorCount(), use, serverMemory()));
        return run;
    }

    /** The server's RSS now and its peak so far, for the log line of the scenario that just ended. */
    private String serverMemory() {
        return "server RSS " + megabytes(server.procStatusKb("VmRSS")) + ", peak so far " + megabytes(server.procStatusKb("VmHWM"));
    }

    /** Whether the deployed server recounts a renew's seats-in-use at most once a second (RecentCounts). */
    private boolean cachedRenewCounts() throws IOException {
        String mode = System.getProperty("bench.floor.renewCount", "auto");
        if (mode.equals("cached")) {
            return true;
        }
        if (mode.equals("always")) {
            return false;
        }
        try (ZipFile war = new ZipFile(config.war().toFile())) {
            return war.getEntry("WEB-INF/classes/dev/keyright/seats/leases/control/RecentCounts.class") != null;
        }
    }

    private void cleanUp() {
        synchronized (cleanupLock) {
            if (server != null) {
                server.close();
            }
            if (database != null && !Boolean.getBoolean("bench.keepDatabases")) {
                database.close();
            }
            if (dataDir != null) {
                try (Stream<Path> files = Files.walk(dataDir)) {
                    files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                } catch (IOException ignored) {
                    // a temp dir; the OS cleans it eventually
                }
                dataDir = null;
            }
        }
    }

    private String gitHead() {
        try {
            Path git = config.basedir().resolve(".git");
            String head = Files.readString(git.resolve("HEAD")).trim();
            if (head.startsWith("ref: ")) {
                Path ref = git.resolve(head.substring(5));
                return Files.isRegularFile(ref) ? Files.readString(ref).trim() : head.substring(5);
            }
            return head;
        } catch (IOException e) {
            return null;
        }
    }

    private static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return parts[0] + " " + parts[1] + " " + parts[2];
        } catch (IOException | RuntimeException e) {
            return "n/a";
        }
    }

    private static String megabytes(OptionalLong kb) {
        return kb.isPresent() ? String.format(Locale.ROOT, "%.0f MB", kb.getAsLong() / 1024.0) : "n/a";
    }

    static void log(String message) {
        System.out.println("[bench " + java.time.LocalTime.now().truncatedTo(ChronoUnit.SECONDS) + "] " + message);
        System.out.flush();
    }

    /** CPU time (utime + stime from /proc/<pid>/stat) of the server, this JVM and mariadbd. */
    private static final class CpuMeter {
        private static final double TICKS_PER_SECOND = 100.0;
        private final long[] pids;

        CpuMeter(long serverPid) {
            this.pids = new long[] {serverPid, ProcessHandle.current().pid(), findPid("mariadbd")};
        }

        long[] snapshot() {
            long[] ticks = new long[pids.length];
            for (int i = 0; i < pids.length; i++) {
                ticks[i] = ticks(pids[i]);
            }
            return ticks;
        }

        double cores(long[] before, long[] after, int i, double wallSeconds) {
            if (before[i] < 0 || after[i] < 0) {
                return Double.NaN;
            }
            return (after[i] - before[i]) / TICKS_PER_SECOND / wallSeconds;
        }

        private static long ticks(long pid) {
            if (pid <= 0) {
                return -1;
            }
            try {
                String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                return Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14, 15)
            } catch (IOException | RuntimeException e) {
                return -1;
            }
        }

        private static long findPid(String command) {
            try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
                return procs.filter(p -> p.getFileName().toString().matches("\\d+"))
                        .filter(p -> {
                            try {
                                return Files.readString(p.resolve("comm")).trim().equals(command);
                            } catch (IOException | RuntimeException e) {
                                return false;
                            }
                        })
                        .mapToLong(p -> Long.parseLong(p.getFileName().toString()))
                        .findFirst().orElse(-1);
            } catch (IOException e) {
                return -1;
            }
        }
    }
}
