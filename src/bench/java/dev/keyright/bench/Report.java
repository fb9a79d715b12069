package dev.keyright.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** The results: a table on standard output and the same figures as JSON (target/bench/results.json). */
final class Report {

    /** A scenario's target: a minimum ratio to the floor, a maximum p99, a minimum share of the offered rate (each optional). */
    record Target(Double minRatio, Double maxP99Millis, Double minOfferedShare) {

        String describe() {
            List<String> parts = new ArrayList<>();
            if (minRatio != null) {
                parts.add(String.format(Locale.ROOT, "ratio>=%.1f", minRatio));
            }
            if (maxP99Millis != null) {
                parts.add(String.format(Locale.ROOT, "p99<%.0fms", maxP99Millis));
            }
            if (minOfferedShare != null) {
                parts.add(String.format(Locale.ROOT, "rate>=%.0f%%offered", minOfferedShare * 100));
            }
            return String.join(" ", parts);
        }
    }

    /**
     * One scenario's runs on both targets; {@code floor} (the reference floor, whose ratio the target is) is null when
     * the floor was not measured, {@code retraced} (the re-traced floor, shown beside it) when it was not either.
     */
    record ScenarioResult(String name, String title, String primaryOp, Drivers.Run server, Drivers.Run floor,
                          Target target, Double offeredRate, Map<String, Object> notes, Drivers.Run retraced) {

        ScenarioResult(String name, String title, String primaryOp, Drivers.Run server, Drivers.Run floor,
                       Target target, Double offeredRate, Map<String, Object> notes) {
            this(name, title, primaryOp, server, floor, target, offeredRate, notes, null);
        }

        ScenarioResult withRetraced(Drivers.Run run) {
            return new ScenarioResult(name, title, primaryOp, server, floor, target, offeredRate, notes, run);
        }

        Double retracedRatio() {
            return retraced == null ? null : opsPerSecond(server) / opsPerSecond(retraced);
        }

        double opsPerSecond(Drivers.Run run) {
            return run == null ? Double.NaN : run.recording().completed() / run.measuredSeconds();
        }

        Double ratio() {
            return floor == null ? null : opsPerSecond(server) / opsPerSecond(floor);
        }

        double p99Millis() {
            return millis(server.recording().histograms().get(primaryOp).getValueAtPercentile(99));
        }

        /** Each check of the target with its outcome. */
        Map<String, Boolean> checks() {
            Map<String, Boolean> checks = new LinkedHashMap<>();
            if (target.minRatio() != null && ratio() != null) {
                checks.put("ratio", ratio() >= target.minRatio());
            }
            if (target.maxP99Millis() != null) {
                checks.put("p99", p99Millis() < target.maxP99Millis());
            }
            if (target.minOfferedShare() != null && offeredRate != null) {
                checks.put("rate", opsPerSecond(server) >= target.minOfferedShare() * offeredRate);
            }
            return checks;
        }

        String verdict() {
            Map<String, Boolean> checks = checks();
            if (checks.isEmpty()) {
                return "n/a";
            }
            List<String> failed = new ArrayList<>();
            checks.forEach((k, ok) -> {
                if (!ok) {
                    failed.add(k);
                }
            });
            return failed.isEmpty() ? "PASS" : "FAIL(" + String.join(",", failed) + ")";
        }
    }

    static double millis(long micros) {
        return micros / 1000.0;
    }

    private Report() {
    }

    static String table(List<ScenarioResult> results, Map<String, Object> extras) {
        StringBuilder out = new StringBuilder();
        String header = String.format(Locale.ROOT, "%-34s %9s %8s %8s %8s %7s | %9s %8s | %6s | %-30s | %s",
                "scenario / operation", "ops/s", "p50 ms", "p99 ms", "p999 ms", "errors", "floor/s", "fl p99", "ratio", "target", "result");
        out.append(header).append('\n').append("-".repeat(header.length())).append('\n');
        for (ScenarioResult r : results) {
            Map<String, Histogram> server = r.server().recording().histograms();
            Map<String, Histogram> floor = r.floor() == null ? Map.of() : r.floor().recording().histograms();
            boolean first = true;
            for (Map.Entry<String, Histogram> e : server.entrySet()) {
                String op = e.getKey();
                Histogram h = e.getValue();
                Histogram f = floor.get(op);
                boolean primary = op.equals(r.primaryOp());
                double ops = primary ? r.opsPerSecond(r.server()) : h.getTotalCount() / r.server().measuredSeconds();
                double floorOps = f == null ? Double.NaN
                        : primary ? r.opsPerSecond(r.floor()) : f.getTotalCount() / r.floor().measuredSeconds();
                long errors = primary ? r.server().recording().errorCount() : errorsOf(r.server().recording(), op);
                String label = first ? r.name() + ": " + op : "  " + op;
                out.append(String.format(Locale.ROOT, "%-34s %9.0f %8.2f %8.2f %8.2f %7d | %9s %8s | %6s | %-30s | %s%n",
                        truncate(label, 34), ops,
                        millis(h.getValueAtPercentile(50)), millis(h.getValueAtPercentile(99)), millis(h.getValueAtPercentile(99.9)),
                        errors,
                        Double.isNaN(floorOps) ? "-" : String.format(Locale.ROOT, "%.0f", floorOps),
                        f == null ? "-" : String.format(Locale.ROOT, "%.2f", millis(f.getValueAtPercentile(99))),
                        Double.isNaN(floorOps) || floorOps == 0 ? "-" : String.format(Locale.ROOT, "%.2f", ops / floorOps),
                        primary ? r.target().describe() : "",
                        primary ? r.verdict() : ""));
                first = false;
            }
            if (r.offeredRate() != null) {
                out.append(String.format(Locale.ROOT, "  (offered %.0f renew/s; renewals scheduled in the window but never sent: %d of %d on the server, %s on the floor;"
                                + " they are in the latencies with the delay they had reached, so those percentiles are lower bounds)%n",
                        r.offeredRate(), r.server().missed(), r.server().scheduled(),
                        r.floor() == null ? "-" : r.floor().missed() + " of " + r.floor().scheduled()));
            }
            Map<String, Long> errors = r.server().recording().errors();
            if (!errors.isEmpty()) {
                out.append("  server errors: ").append(errors).append('\n');
            }
            if (r.floor() != null && !r.floor().recording().errors().isEmpty()) {
                out.append("  floor errors: ").append(r.floor().recording().errors()).append('\n');
            }
            if (r.retraced() != null) {
                Histogram h = r.retraced().recording().histograms().get(r.primaryOp());
                out.append(String.format(Locale.ROOT, "  re-traced floor (the server's SQL of this build): %.0f %s/s, p99 %s ms,"
                                + " ratio %.2f (the ratio above is to the reference floor, the SQL of 2026-12-03)%n",
                        r.opsPerSecond(r.retraced()), r.primaryOp(),
                        h == null ? "-" : String.format(Locale.ROOT, "%.2f", millis(h.getValueAtPercentile(99))), r.retracedRatio()));
                if (!r.retraced().recording().errors().isEmpty()) {
                    out.append("  re-traced floor errors: ").append(r.retraced().recording().errors()).append('\n');
                }
            }
        }
        out.append('\n');
        extras.forEach((k, v) -> out.append(String.format(Locale.ROOT, "%-34s %s%n", k, v)));
        return out.toString();
    }

    private static long errorsOf(Recording recording, String op) {
        return recording.errors().entrySet().stream()
                .filter(e -> e.getKey().startsWith(op + " "))
                .mapToLong(Map.Entry::getValue).sum();
    }

    private static String truncate(String s, int n) {
        return s.length() <= n ? s : s.substring(0, n);
    }

    static Map<String, Object> json(ScenarioResult r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("scenario", r.name());
        m.put("description", r.title());
        m.put("primaryOperation", r.primaryOp());
        m.put("server", run(r.server(), r));
        m.put("floor", r.floor() == null ? null : run(r.floor(), r));
        m.put("ratio", r.ratio());
        m.put("floorRetraced", r.retraced() == null ? null : run(r.retraced(), r));
        m.put("ratioRetraced", r.retracedRatio());
        m.put("target", r.target().describe());
        m.put("checks", r.checks());
        m.put("result", r.verdict());
        if (r.offeredRate() != null) {
            m.put("offeredRatePerSecond", r.offeredRate());
        }
        m.put("notes", r.notes());
        return m;
    }

    private static Map<String, Object> run(Drivers.Run run, ScenarioResult r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("measuredSeconds", run.measuredSeconds());
        m.put("completedOperations", run.recording().completed());
        m.put("opsPerSecond", round(r.opsPerSecond(run)));
        if (run.scheduled() > 0) {
            m.put("scheduledInWindow", run.scheduled());
            m.put("neverSent", run.missed());
        }
        Map<String, Object> ops = new LinkedHashMap<>();
        run.recording().histograms().forEach((op, h) -> {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("calls", h.getTotalCount());
            o.put("callsPerSecond", round(h.getTotalCount() / run.measuredSeconds()));
            o.put("meanMs", round(h.getMean() / 1000));
            o.put("p50Ms", millis(h.getValueAtPercentile(50)));
            o.put("p90Ms", millis(h.getValueAtPercentile(90)));
            o.put("p99Ms", millis(h.getValueAtPercentile(99)));
            o.put("p999Ms", millis(h.getValueAtPercentile(99.9)));
            o.put("maxMs", millis(h.getMaxValue()));
            ops.put(op, o);
        });
        m.put("operations", ops);
        m.put("errors", run.recording().errors());
        return m;
    }

    static double round(double v) {
        return Double.isFinite(v) ? Math.round(v * 100) / 100.0 : v;
    }

    static void writeJson(Path file, Object value) throws IOException {
        Files.createDirectories(file.getParent());
        StringBuilder out = new StringBuilder();
        write(out, value, 0);
        out.append('\n');
        Files.writeString(file, out);
    }

    private static void write(StringBuilder out, Object value, int indent) {
        if (value == null || (value instanceof Double d && !Double.isFinite(d))) {
            out.append("null");
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            Iterator<? extends Map.Entry<?, ?>> it = map.entrySet().iterator();
            while (it.hasNext()) {
                Map.Entry<?, ?> e = it.next();
                out.append('\n').append("  ".repeat(indent + 1));
                string(out, String.valueOf(e.getKey()));
                out.append(": ");
                write(out, e.getValue(), indent + 1);
                if (it.hasNext()) {
                    out.append(',');
                }
            }
            out.append(map.isEmpty() ? "}" : "\n" + "  ".repeat(indent) + "}");
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                out.append('\n').append("  ".repeat(indent + 1));
                write(out, list.get(i), indent + 1);
                if (i < list.size() - 1) {
                    out.append(',');
                }
            }
            out.append(list.isEmpty() ? "]" : "\n" + "  ".repeat(indent) + "]");
        } else if (value instanceof Number || value instanceof Boolean) {
            out.append(value);
        } else {
            string(out, value.toString());
        }
    }

    private static void string(StringBuilder out, String s) {
        out.append('"');
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
