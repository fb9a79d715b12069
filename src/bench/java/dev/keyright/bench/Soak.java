package dev.keyright.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The soak (issue 19): while the mixed load runs for a long time, every {@code bench.soak.sampleSeconds} it
 * samples the server's RSS, its heap after the latest collection (from the server's {@code -Xlog:gc} file) and
 * the size of every table that load writes; at the end it reports each as first, last, peak and a least-squares
 * slope per minute over the samples after the first two minutes (class loading and JIT settle there). A leak
 * shows as a slope that does not go to zero; a table the retention bounds shows as a bounded count.
 */
final class Soak implements AutoCloseable {

    static final String[] TABLES = {"lease", "lease_event", "idempotency_record", "queue_entry", "install_block",
            "activation", "license"};
    private static final Pattern GC_LINE = Pattern.compile("\\[([0-9.]+)s\\].*GC\\(\\d+\\).* (\\d+)M->(\\d+)M\\((\\d+)M\\)");
    private static final double SETTLE_SECONDS = 120;

    private final PayaraServer server;
    private final Path gcLog;
    private final String jdbcUrl;
    private final String user;
    private final String password;
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "soak-sampler");
        t.setDaemon(true);
        return t;
    });
    private final List<Sample> samples = new ArrayList<>();
    private long startedNanos;
    private double liveHeapAtStartMb = Double.NaN;
    private double liveHeapAtEndMb = Double.NaN;

    /** One reading: seconds since the soak started, RSS in MB, heap after the last collection in MB, rows per table. */
    record Sample(double seconds, double rssMb, double heapAfterGcMb, Map<String, Long> rows) {
    }

    Soak(PayaraServer server, Path gcLog, String jdbcUrl, String user, String password) {
        this.server = server;
        this.gcLog = gcLog;
        this.jdbcUrl = jdbcUrl;
        this.user = user;
        this.password = password;
    }

    void start(int sampleSeconds) {
        liveHeapAtStartMb = liveHeapMb();
        startedNanos = System.nanoTime();
        sampler.scheduleAtFixedRate(this::sample, 0, sampleSeconds, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        sampler.shutdown();
        sampler.awaitTermination(30, TimeUnit.SECONDS);
        sample();
        liveHeapAtEndMb = liveHeapMb();
    }

    /**
     * The heap that is live: a full collection asked of the server ({@code jcmd GC.run}), and what it left, from the
     * GC log. Between young collections the old generation also holds garbage promoted since the last full one, so
     * only this measure, taken before and after the soak, tells a leak from garbage not yet collected.
     */
    private double liveHeapMb() {
        try {
            Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                    Long.toString(server.pid()), "GC.run").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!jcmd.waitFor(60, TimeUnit.SECONDS)) {
                jcmd.destroyForcibly();
                return Double.NaN;
            }
            Thread.sleep(500); // the log line is written after the pause
            double last = Double.NaN;
            for (String line : Files.readAllLines(gcLog)) {
                Matcher m = GC_LINE.matcher(line);
                if (line.contains("Pause Full") && m.find()) {
                    last = Double.parseDouble(m.group(3));
                }
            }
            return last;
        } catch (IOException e) {
            return Double.NaN;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Double.NaN;
        }
    }

    private synchronized void sample() {
        double seconds = (System.nanoTime() - startedNanos) / 1e9;
        OptionalLong rss = server.procStatusKb("VmRSS");
        Map<String, Long> rows = new LinkedHashMap<>();
        try (Connection c = DriverManager.getConnection(jdbcUrl, user, password); Statement s = c.createStatement()) {
            for (String table : TABLES) {
                try (ResultSet r = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
                    r.next();
                    rows.put(table, r.getLong(1));
                }
            }
        } catch (SQLException e) {
            rows.put("error: " + e.getMessage(), -1L);
        }
        samples.add(new Sample(seconds, rss.isPresent() ? rss.getAsLong() / 1024.0 : Double.NaN, heapAfterLastGc(), rows));
    }

    /** The heap in use after the latest collection the server logged, in MB; NaN before the first. */
    private double heapAfterLastGc() {
        try {
            double last = Double.NaN;
            for (String line : Files.readAllLines(gcLog)) {
                Matcher m = GC_LINE.matcher(line);
                if (m.find()) {
                    last = Double.parseDouble(m.group(3));
                }
            }
            return last;
        } catch (IOException e) {
            return Double.NaN;
        }
    }

    synchronized List<Sample> samples() {
        return List.copyOf(samples);
    }

    /** The report: per measure, first, last, peak and the slope per minute after the first two minutes. */
    synchronized Map<String, Object> summary() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("samples", samples.size());
        out.put("minutes", samples.isEmpty() ? 0 : Report.round(samples.get(samples.size() - 1).seconds() / 60));
        out.put("liveHeapAfterFullGcMb", Map.of("start", Report.round(liveHeapAtStartMb), "end", Report.round(liveHeapAtEndMb)));
        out.put("rssMb", series(Sample::rssMb));
        out.put("heapAfterGcMb", series(Sample::heapAfterGcMb));
        Map<String, Object> tables = new LinkedHashMap<>();
        for (String table : TABLES) {
            tables.put(table, series(s -> s.rows().getOrDefault(table, -1L).doubleValue()));
        }
        out.put("rows", tables);
        return out;
    }

    /** One line per measure, for the log and the README. */
    synchronized List<String> lines() {
        List<String> lines = new ArrayList<>();
        lines.add(line("RSS (MB)", series(Sample::rssMb)));
        lines.add(line("heap after GC (MB)", series(Sample::heapAfterGcMb)));
        lines.add(String.format(Locale.ROOT, "%-28s before %.0f, after %.0f", "live heap, full GC (MB)", liveHeapAtStartMb, liveHeapAtEndMb));
        for (String table : TABLES) {
            lines.add(line("rows " + table, series(s -> s.rows().getOrDefault(table, -1L).doubleValue())));
        }
        return lines;
    }

    private static String line(String name, Map<String, Object> series) {
        return String.format(Locale.ROOT, "%-28s first %s, last %s, peak %s, slope after 2 min %s per minute", name,
                series.get("first"), series.get("last"), series.get("peak"), series.get("slopePerMinute"));
    }

    private Map<String, Object> series(java.util.function.ToDoubleFunction<Sample> measure) {
        Map<String, Object> out = new LinkedHashMap<>();
        List<double[]> points = new ArrayList<>();
        double peak = Double.NEGATIVE_INFINITY;
        for (Sample s : samples) {
            double v = measure.applyAsDouble(s);
            if (Double.isNaN(v)) {
                continue;
            }
            peak = Math.max(peak, v);
            if (s.seconds() >= SETTLE_SECONDS) {
                points.add(new double[] {s.seconds() / 60, v});
            }
        }
        List<Double> all = samples.stream().map(measure::applyAsDouble).filter(v -> !Double.isNaN(v)).toList();
        out.put("first", all.isEmpty() ? null : Report.round(all.get(0)));
        out.put("last", all.isEmpty() ? null : Report.round(all.get(all.size() - 1)));
        out.put("peak", all.isEmpty() ? null : Report.round(peak));
        out.put("slopePerMinute", points.size() < 3 ? null : Report.round(slope(points)));
        return out;
    }

    /** Least squares: the change per minute that best fits the points. */
    static double slope(List<double[]> points) {
        double n = points.size();
        double sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (double[] p : points) {
            sx += p[0];
            sy += p[1];
            sxx += p[0] * p[0];
            sxy += p[0] * p[1];
        }
        double denominator = n * sxx - sx * sx;
        return denominator == 0 ? 0 : (n * sxy - sx * sy) / denominator;
    }
}
