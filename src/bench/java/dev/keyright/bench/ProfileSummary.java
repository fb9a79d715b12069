package dev.keyright.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * A short summary of the server's JFR recording ({@code -Dbench.jfr=true}): per server-side scenario
 * window, where the CPU samples ({@code jdk.ExecutionSample}) went, by layer (a sample counts for
 * every layer that has a frame on its stack, so the shares overlap) and by top frame.
 * Also runnable alone: {@code java ... dev.keyright.bench.ProfileSummary target/bench/server.jfr}.
 */
public final class ProfileSummary {

    /** Layers, matched on frame class names, most specific first. */
    private static final Map<String, String[]> LAYERS = new LinkedHashMap<>();

    static {
        LAYERS.put("ES256 token signing (jose4j / JCA EC)", new String[] {"org.jose4j.", "sun.security.ec.", "sun.security.util.math."});
        LAYERS.put("license-key HMAC / SHA-256", new String[] {"dev.keyright.seats.secrets.", "dev.keyright.seats.licenses.control.LicenseKeys",
                "com.sun.crypto.provider.HmacCore", "sun.security.provider.SHA2", "sun.security.provider.DigestBase"});
        LAYERS.put("MariaDB JDBC driver", new String[] {"org.mariadb.jdbc."});
        LAYERS.put("JDBC pool / JTA (GlassFish connectors, transaction)", new String[] {"com.sun.gjc.", "com.sun.enterprise.resource.",
                "com.sun.enterprise.transaction.", "com.sun.jts.", "org.glassfish.resourcebase.", "com.sun.enterprise.connectors."});
        LAYERS.put("EclipseLink (JPA)", new String[] {"org.eclipse.persistence."});
        LAYERS.put("EJB container (interceptors, pools, security)", new String[] {"com.sun.ejb.", "org.glassfish.ejb.",
                "com.sun.enterprise.security."});
        LAYERS.put("CDI (Weld)", new String[] {"org.jboss.weld."});
        LAYERS.put("JAX-RS (Jersey)", new String[] {"org.glassfish.jersey."});
        LAYERS.put("JSON (Parsson/Yasson)", new String[] {"org.eclipse.parsson.", "org.eclipse.yasson.", "jakarta.json."});
        LAYERS.put("Servlet / web container (Catalina, Payara web)", new String[] {"org.apache.catalina.", "org.apache.coyote.",
                "com.sun.enterprise.web.", "org.glassfish.web.", "fish.payara.nucleus.requesttracing."});
        LAYERS.put("HTTP / NIO (Grizzly)", new String[] {"org.glassfish.grizzly."});
        LAYERS.put("Keyright application code", new String[] {"dev.keyright."});
        LAYERS.put("logging (JUL)", new String[] {"java.util.logging.", "fish.payara.logging.", "com.sun.enterprise.server.logging."});
    }

    private ProfileSummary() {
    }

    /** {@code ProfileSummary <file.jfr> [name=startEpochMs-endEpochMs ...]} (windows from results.json). */
    public static void main(String[] args) throws IOException {
        List<String> names = new ArrayList<>();
        List<long[]> windows = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            String[] nameRange = args[i].split("=", 2);
            String[] range = nameRange[1].split("-", 2);
            names.add(nameRange[0]);
            windows.add(new long[] {Long.parseLong(range[0]), Long.parseLong(range[1])});
        }
        if (names.isEmpty()) {
            names.add("whole recording");
            windows.add(new long[] {0, Long.MAX_VALUE});
        }
        System.out.println(summarize(Path.of(args[0]), names, windows));
    }

    static String summarize(Path jfr, List<String> names, List<long[]> windows) throws IOException {
        int n = windows.size();
        long[] samples = new long[n];
        List<Map<String, Long>> layers = new ArrayList<>();
        List<Map<String, Long>> selfLayers = new ArrayList<>();
        List<Map<String, Long>> tops = new ArrayList<>();
        List<Map<String, Long>> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            layers.add(new HashMap<>());
            selfLayers.add(new HashMap<>());
            tops.add(new HashMap<>());
            threads.add(new HashMap<>());
        }
        try (RecordingFile file = new RecordingFile(jfr)) {
            while (file.hasMoreEvents()) {
                RecordedEvent event = file.readEvent();
                if (!event.getEventType().getName().equals("jdk.ExecutionSample")) {
                    continue;
                }
                long at = event.getStartTime().toEpochMilli();
                for (int i = 0; i < n; i++) {
                    if (at >= windows.get(i)[0] && at <= windows.get(i)[1]) {
                        samples[i]++;
                        account(event, layers.get(i), selfLayers.get(i), tops.get(i), threads.get(i));
                    }
                }
            }
        }
        StringBuilder out = new StringBuilder("Server CPU profile (JFR jdk.ExecutionSample), by scenario window\n");
        for (int i = 0; i < n; i++) {
            if (!names.get(i).endsWith("@server") && n > 1) {
                continue;
            }
            out.append(String.format(Locale.ROOT, "%n== %s: %d samples%n", names.get(i), samples[i]));
            if (samples[i] == 0) {
                continue;
            }
            out.append("  self time by layer (the innermost frame that belongs to a layer; JDK frames count for their caller):\n");
            append(out, selfLayers.get(i), samples[i], 20);
            out.append("  inclusive, by layer (a sample counts for each layer on its stack):\n");
            append(out, layers.get(i), samples[i], 20);
            out.append("  top frames:\n");
            append(out, tops.get(i), samples[i], 25);
            out.append("  threads:\n");
            append(out, threads.get(i), samples[i], 8);
        }
        return out.toString();
    }

    private static void account(RecordedEvent event, Map<String, Long> layers, Map<String, Long> selfLayers,
                                Map<String, Long> tops, Map<String, Long> threads) {
        RecordedStackTrace stack = event.getStackTrace();
        String thread = event.getThread("sampledThread") == null ? "?" : event.getThread("sampledThread").getJavaName();
        threads.merge(thread == null ? "?" : thread.replaceAll("\\d+", "#"), 1L, Long::sum);
        if (stack == null || stack.getFrames().isEmpty()) {
            return;
        }
        List<RecordedFrame> frames = stack.getFrames();
        RecordedFrame top = frames.get(0);
        tops.merge(top.getMethod().getType().getName() + "." + top.getMethod().getName(), 1L, Long::sum);
        String self = "JDK / other";
        outer:
        for (RecordedFrame frame : frames) {
            String type = frame.getMethod().getType().getName();
            for (Map.Entry<String, String[]> layer : LAYERS.entrySet()) {
                for (String prefix : layer.getValue()) {
                    if (type.startsWith(prefix)) {
                        self = layer.getKey();
                        break outer;
                    }
                }
            }
        }
        selfLayers.merge(self, 1L, Long::sum);
        for (Map.Entry<String, String[]> layer : LAYERS.entrySet()) {
            boolean hit = false;
            for (RecordedFrame frame : frames) {
                String type = frame.getMethod().getType().getName();
                for (String prefix : layer.getValue()) {
                    if (type.startsWith(prefix)) {
                        hit = true;
                        break;
                    }
                }
                if (hit) {
                    break;
                }
            }
            if (hit) {
                layers.merge(layer.getKey(), 1L, Long::sum);
            }
        }
    }

    private static void append(StringBuilder out, Map<String, Long> counts, long total, int limit) {
        counts.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(limit)
                .forEach(e -> out.append(String.format(Locale.ROOT, "    %5.1f%%  %s%n", 100.0 * e.getValue() / total, e.getKey())));
    }
}
