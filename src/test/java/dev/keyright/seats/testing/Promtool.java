package dev.keyright.seats.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Prometheus's own {@code promtool}, to check that the metrics are well formed: Debian's {@code prometheus}
 * package is downloaded (not installed: no service starts) and unpacked under {@code target/promtool} when
 * no {@code promtool} is on the machine. Bounded in time.
 */
public final class Promtool {

    private static final Path INSTALLED = Path.of("/usr/bin/promtool");
    private static final Path UNPACKED = Path.of("target", "promtool");
    private static final Path LOCAL = UNPACKED.resolve("usr/bin/promtool");

    private Promtool() {
    }

    /** {@code promtool check metrics} on this text: its exit status and what it said. */
    public static Result checkMetrics(String metrics) throws Exception {
        Process process = new ProcessBuilder(path().toString(), "check", "metrics").redirectErrorStream(true).start();
        process.getOutputStream().write(metrics.getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().close();
        String said = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("promtool did not finish within 60 s");
        }
        return new Result(process.exitValue(), said);
    }

    public record Result(int status, String output) {
    }

    private static synchronized Path path() throws Exception {
        if (Files.isExecutable(INSTALLED)) {
            return INSTALLED;
        }
        if (!Files.isExecutable(LOCAL)) {
            Files.createDirectories(UNPACKED);
            Path download = Files.createTempDirectory(UNPACKED, "deb");
            if (run(download, List.of("apt-get", "download", "prometheus")) != 0) {
                run(download, List.of("apt-get", "-q", "update"));
                if (run(download, List.of("apt-get", "download", "prometheus")) != 0) {
                    throw new IllegalStateException("cannot download Debian's prometheus package for promtool; see " + download);
                }
            }
            try (var debs = Files.list(download)) {
                Path deb = debs.filter(p -> p.getFileName().toString().endsWith(".deb")).findFirst()
                        .orElseThrow(() -> new IllegalStateException("no prometheus .deb in " + download));
                if (run(download, List.of("dpkg-deb", "-x", deb.toAbsolutePath().toString(), UNPACKED.toAbsolutePath().toString())) != 0) {
                    throw new IllegalStateException("cannot unpack " + deb);
                }
            }
        }
        return LOCAL;
    }

    private static int run(Path directory, List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(directory.resolve("log.txt").toFile())).start();
        if (!process.waitFor(5, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            return -1;
        }
        return process.exitValue();
    }
}
