package dev.keyright.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * One Payara Micro process on MariaDB, as docs/DEPLOYMENT.md runs a node (--nohazelcast, server-config/hardening.asadmin
 * as the pre-boot file, the MariaDB post-boot file), with its HTTP listener bound to 127.0.0.1 by one more pre-boot line.
 * {@link #startEmptyWar} starts the same command with a WAR that holds nothing but one static page: the boot baseline.
 */
final class PayaraServer implements AutoCloseable {

    private final Process process;
    private final Path log;
    private final long startedNanos;
    private final URI base;
    private volatile boolean stopped;
    private volatile long logOffsetAtReady;

    private final String readyPath;

    private PayaraServer(Process process, Path log, long startedNanos, URI base, String readyPath) {
        this.process = process;
        this.log = log;
        this.startedNanos = startedNanos;
        this.base = base;
        this.readyPath = readyPath;
    }

    static PayaraServer start(BenchConfig config, Path workDir, Map<String, String> environment, List<String> extraJvmArgs)
            throws IOException {
        requireBuild(config);
        // Deploy a copy, so that a rebuild of target/keyright-seats.war during the run cannot disturb it.
        Path war = workDir.resolve("keyright-seats.war");
        Files.copy(config.war(), war, StandardCopyOption.REPLACE_EXISTING);
        return start(config, workDir, environment, extraJvmArgs, war, "/.well-known/jwks.json", "server.log");
    }

    /**
     * The same command, JVM options and pre- and post-boot files with an empty WAR (a web.xml and one static page):
     * what Payara Micro itself takes to boot on this machine and JVM, the baseline of the boot target.
     */
    static PayaraServer startEmptyWar(BenchConfig config, Path workDir, Map<String, String> environment, List<String> extraJvmArgs)
            throws IOException {
        Path war = workDir.resolve("empty.war");
        try (java.util.zip.ZipOutputStream zip = new java.util.zip.ZipOutputStream(Files.newOutputStream(war))) {
            zip.putNextEntry(new java.util.zip.ZipEntry("WEB-INF/web.xml"));
            zip.write(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<web-app xmlns=\"https://jakarta.ee/xml/ns/jakartaee\""
                    + " version=\"6.0\"/>\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
            zip.closeEntry();
            zip.putNextEntry(new java.util.zip.ZipEntry("ready.txt"));
            zip.write("ready\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            zip.closeEntry();
        }
        requireBuild(config);
        return start(config, workDir, environment, extraJvmArgs, war, "/ready.txt", "empty-war.log");
    }

    private static void requireBuild(BenchConfig config) {
        for (Path required : List.of(config.payaraJar(), config.war(), config.driverJar(), config.asadmin())) {
            if (!Files.isRegularFile(required)) {
                throw new IllegalStateException(required + " is missing: run `mvn -B -ntp package -DskipTests` first"
                        + " (the bench profile's `verify` does)");
            }
        }
    }

    private static PayaraServer start(BenchConfig config, Path workDir, Map<String, String> environment, List<String> extraJvmArgs,
            Path war, String readyPath, String logName) throws IOException {
        Path preboot = workDir.resolve("preboot.asadmin");
        Files.writeString(preboot, Files.readString(config.basedir().resolve("server-config/hardening.asadmin")) + "\n"
                + "set configs.config.server-config.network-config.network-listeners.network-listener.http-listener.address=127.0.0.1\n");
        List<String> command = new ArrayList<>();
        command.add(config.serverJava().resolve("bin").resolve("java").toString());
        command.addAll(extraJvmArgs);
        if (!config.serverJvmArgs().isBlank()) {
            command.addAll(Arrays.asList(config.serverJvmArgs().trim().split("\\s+")));
        }
        command.addAll(List.of("-jar", config.payaraJar().toString(),
                "--deploy", war.toString(),
                "--contextroot", "/",
                "--nohazelcast",
                "--port", Integer.toString(config.port()),
                "--addlibs", config.driverJar().toString(),
                "--prebootcommandfile", preboot.toString(),
                "--postbootcommandfile", config.asadmin().toString()));
        Path log = workDir.resolve(logName);
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        long started = System.nanoTime();
        Process process = builder.start();
        return new PayaraServer(process, log, started, URI.create("http://127.0.0.1:" + config.port()), readyPath);
    }

    URI base() {
        return base;
    }

    long pid() {
        return process.pid();
    }

    Path log() {
        return log;
    }

    /** Waits until GET of the ready path (the JWKS, or the empty WAR's page) answers 200; returns the seconds from process start. */
    double awaitReady(int timeoutSeconds) throws InterruptedException {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest probe = HttpRequest.newBuilder(base.resolve(readyPath))
                .timeout(Duration.ofSeconds(2)).GET().build();
        long deadline = startedNanos + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the server exited with status " + process.exitValue() + " while starting; see " + log);
            }
            try {
                if (client.send(probe, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    double seconds = (System.nanoTime() - startedNanos) / 1e9;
                    logOffsetAtReady = Files.size(log);
                    return seconds;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("the server was not ready within " + timeoutSeconds + " s; see " + log);
    }

    /** The SEVERE and WARNING records the server logged after it was ready (first line of each). */
    List<String> problemsSinceReady() {
        List<String> problems = new ArrayList<>();
        try (java.io.RandomAccessFile file = new java.io.RandomAccessFile(log.toFile(), "r")) {
            file.seek(Math.min(logOffsetAtReady, file.length()));
            byte[] rest = new byte[(int) Math.min(Integer.MAX_VALUE - 16, file.length() - file.getFilePointer())];
            file.readFully(rest);
            for (String line : new String(rest, java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
                if (line.contains("SEVERE") || line.contains("WARNING")) {
                    problems.add(line.replaceAll("\u001B\\[[0-9;]*m", ""));
                }
            }
        } catch (IOException e) {
            problems.add("(could not read " + log + ": " + e + ")");
        }
        return problems;
    }

    /** A line of /proc/<pid>/status in kB (VmRSS, VmHWM), if there is one. */
    OptionalLong procStatusKb(String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
                if (line.startsWith(field + ":")) {
                    return OptionalLong.of(Long.parseLong(line.substring(field.length() + 1).replace("kB", "").trim()));
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or the process is gone
        }
        return OptionalLong.empty();
    }

    /** SIGTERM, then SIGKILL after 30 s. Safe to call twice. */
    @Override
    public void close() {
        if (stopped) {
            return;
        }
        stopped = true;
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
