package dev.keyright.seats.testing;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Several Payara Micro nodes of the built WAR, each its own process on its own loopback port, with no
 * app-server clustering ({@code --nocluster}), sharing one MariaDB database: every piece of state is in
 * the database. For scale-out and fault tests; every node is stopped by {@link #close()}.
 */
public final class Nodes implements AutoCloseable {

    private final List<String> databaseUrls;
    private final Map<String, String> environment;
    private final List<Node> nodes = new ArrayList<>();
    private final Map<Integer, String> databaseUrlOfPort = new java.util.HashMap<>();
    private final Path logs;

    /** Nodes on the test MariaDB (127.0.0.1:3306), all on {@code database}. */
    public Nodes(String database, Map<String, String> extraEnvironment) throws IOException {
        this(List.of("jdbc:mariadb://127.0.0.1:3306/" + database + "?sessionVariables=innodb_lock_wait_timeout=1"), extraEnvironment);
    }

    /**
     * Nodes each on its own database server of one cluster (a Galera cluster: multi-primary): the n-th node
     * started uses {@code databaseUrls.get(n % size)}, and keeps it when restarted.
     */
    public Nodes(List<String> databaseUrls, Map<String, String> extraEnvironment) throws IOException {
        this.databaseUrls = List.copyOf(databaseUrls);
        this.environment = Map.copyOf(extraEnvironment);
        this.logs = Files.createDirectories(Path.of("target", "nodes"));
    }

    /**
     * Starts {@code count} nodes: the first alone on the empty database, then the others at once; waits
     * until each serves.
     */
    public List<Node> start(int count) throws Exception {
        List<Node> started = new ArrayList<>();
        started.add(launch(freePort()));
        started.get(0).awaitReady(Duration.ofSeconds(240));
        for (int i = 1; i < count; i++) {
            started.add(launch(freePort()));
        }
        for (Node node : started) {
            node.awaitReady(Duration.ofSeconds(240));
        }
        return started;
    }

    /** Starts {@code count} nodes at the same instant (a new installation whose nodes all start at once). */
    public List<Node> startTogether(int count) throws Exception {
        List<Node> started = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            started.add(launch(freePort()));
        }
        for (Node node : started) {
            node.awaitReady(Duration.ofSeconds(300));
        }
        return started;
    }

    /** Starts one node with this test's settings and does not wait for it: for a start that is meant to fail. */
    public Node launch() throws IOException {
        return launch(freePort());
    }

    /** Starts a node again on the port of one that was killed. */
    public Node restart(Node killed) throws Exception {
        Node node = launch(killed.port());
        node.awaitReady(Duration.ofSeconds(240));
        return node;
    }

    /**
     * One node on the embedded default database: the WAR deployed as it is, no post-boot file, no
     * driver, only the settings given (e.g. {@code KEYRIGHT_DATA_DIR}).
     */
    public static Node embedded(Map<String, String> settings, Path log) throws Exception {
        return embedded(new File("target/keyright-seats.war"), settings, log);
    }

    /** As {@link #embedded(Map, Path)}, deploying {@code application} (a WAR file or an exploded directory). */
    public static Node embedded(File application, Map<String, String> settings, Path log) throws Exception {
        return embedded(application, settings, log, java.util.List.of());
    }

    /**
     * The README's first command: the WAR on the embedded default, with its quiet console log, on the loopback
     * address only, its HTTP port closed until the WAR is deployed (its {@code <(cat hardening.asadmin
     * local-only.asadmin closed-until-deployed.asadmin)}, written to a file here; Payara Micro runs only the last
     * pre-boot file given; and its post-deploy {@code open-when-deployed.asadmin}).
     */
    public static Node readmeCommand(Map<String, String> settings, Path log) throws Exception {
        Path preboot = Files.createDirectories(Path.of("target", "nodes")).resolve("readme-preboot.asadmin");
        Files.writeString(preboot, Files.readString(Path.of("server-config/hardening.asadmin")) + "\n"
                + Files.readString(Path.of("server-config/local-only.asadmin")) + "\n"
                + Files.readString(Path.of("server-config/closed-until-deployed.asadmin")));
        return embedded(new File("target/keyright-seats.war"), settings, log,
                java.util.List.of("--prebootcommandfile", preboot.toString(),
                        "--postdeploycommandfile", new File("server-config/open-when-deployed.asadmin").getPath(),
                        "--logproperties", new File("server-config/console-logging.properties").getPath()));
    }

    private static Node embedded(File application, Map<String, String> settings, Path log, java.util.List<String> more) throws Exception {
        String javaCommand = ProcessHandle.current().info().command().orElse("java");
        int port = freePort();
        java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of(javaCommand, "-Xmx384m", "-jar", microJar().getPath(),
                "--deploy", application.getPath(), "--contextroot", "/", "--nohazelcast",
                "--prebootcommandfile", new File("server-config/hardening.asadmin").getPath(), "--port", String.valueOf(port)));
        command.addAll(more);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("KEYRIGHT_"));
        builder.environment().putAll(settings);
        return new Node(port, builder.start(), log);
    }

    private Node launch(int port) throws IOException {
        String databaseUrl = databaseUrlOfPort.computeIfAbsent(port, p -> databaseUrls.get(databaseUrlOfPort.size() % databaseUrls.size()));
        String java = ProcessHandle.current().info().command().orElse("java");
        Path log = logs.resolve("node-" + port + ".log");
        Path dataDir = Files.createDirectories(Path.of("target", "nodes", "data-" + port));
        ProcessBuilder builder = new ProcessBuilder(java, "-Xmx384m", "-jar", microJar().getPath(),
                "--deploy", new File("target/keyright-seats.war").getPath(), "--contextroot", "/", "--nohazelcast",
                "--prebootcommandfile", new File("server-config/hardening.asadmin").getPath(),
                "--port", String.valueOf(port), "--addlibs", jar("target/lib", "mariadb-java-client-").getPath(),
                "--postbootcommandfile", System.getProperty("keyright.mariadbAsadmin", "server-config/mariadb.asadmin"))
                .redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> env = builder.environment();
        env.put("KEYRIGHT_DB_URL", databaseUrl);
        env.put("KEYRIGHT_DB_USER", MariaDb.USER);
        env.put("KEYRIGHT_DB_PASSWORD", MariaDb.PASSWORD);
        env.put("KEYRIGHT_ADMIN_PASSWORD", Api.ADMIN_PASSWORD);
        env.put("KEYRIGHT_DATA_DIR", dataDir.toString());
        env.put("KEYRIGHT_KEY_SECRET", "shared-by-every-node-of-this-test-installation");
        env.put("KEYRIGHT_TRUSTED_PROXIES", "127.0.0.1");
        env.putAll(environment);
        Node node = new Node(port, builder.start(), log);
        nodes.add(node);
        return node;
    }

    /** The build's Payara Micro (6, or 7 with {@code -Dpayara.micro=7}), as the Arquillian container takes it. */
    private static File microJar() {
        String configured = System.getProperty("payara.microJar");
        return configured != null ? new File(configured) : jar("target", "payara-micro-");
    }

    private static File jar(String directory, String prefix) {
        File[] found = new File(directory).listFiles((dir, name) -> name.startsWith(prefix) && name.endsWith(".jar"));
        if (found == null || found.length == 0) {
            throw new IllegalStateException("missing " + directory + "/" + prefix + "*.jar: run mvn package first");
        }
        return found[0];
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        for (Node node : nodes) {
            node.kill();
        }
    }

    /** One server process. */
    public static final class Node {
        private final int port;
        private final Process process;
        private final Path log;

        Node(int port, Process process, Path log) {
            this.port = port;
            this.process = process;
            this.log = log;
        }

        public int port() {
            return port;
        }

        public URL url() {
            try {
                return new URL("http://127.0.0.1:" + port + "/");
            } catch (java.net.MalformedURLException e) {
                throw new IllegalStateException(e);
            }
        }

        public Api api() {
            return new Api(url());
        }

        public long pid() {
            return process.pid();
        }

        /** Waits for the process to end by itself and returns its exit status; fails if it is still running after {@code limit}. */
        public int exitStatus(Duration limit) throws InterruptedException {
            if (!process.waitFor(limit.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
                throw new AssertionError("the process is still running after " + limit.toSeconds() + " s");
            }
            return process.exitValue();
        }

        public boolean alive() {
            return process.isAlive();
        }

        /** SIGKILL: no shutdown hooks, no graceful close of anything. */
        public void kill() {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            try {
                process.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** SIGTERM: a normal stop; returns when the process has exited. */
        public void stop() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                kill();
            }
        }

        public String log() throws IOException {
            return Files.readString(log);
        }

        /** How many times {@code part} stands in this node's log so far. */
        public int logCount(String part) throws IOException {
            String text = log();
            int count = 0;
            for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
                count++;
            }
            return count;
        }

        public void awaitReady(Duration limit) throws Exception {
            awaitReady(limit, Duration.ofMillis(250));
        }

        /**
         * Asks {@code GET /.well-known/jwks.json} every {@code every} until it answers 200, and returns every other
         * answer it got on the way, in order, each once ("404 text/html;charset=ISO-8859-1"); a refused or
         * unanswered connection is not an answer and is not listed.
         */
        public java.util.List<String> awaitReady(Duration limit, Duration every) throws Exception {
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
            java.util.Set<String> answers = new java.util.LinkedHashSet<>();
            long deadline = System.nanoTime() + limit.toNanos();
            while (System.nanoTime() < deadline) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("node on port " + port + " exited; see " + log);
                }
                try {
                    HttpResponse<String> response = http.send(HttpRequest.newBuilder(url().toURI().resolve(".well-known/jwks.json"))
                            .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
                    if (response.statusCode() == 200) {
                        return java.util.List.copyOf(answers);
                    }
                    answers.add(response.statusCode() + " " + response.headers().firstValue("Content-Type").orElse("(no Content-Type)"));
                } catch (IOException notYet) {
                    // nothing listening yet, or the connection not answered
                }
                Thread.sleep(every.toMillis());
            }
            throw new IllegalStateException("node on port " + port + " not ready in " + limit + "; see " + log);
        }
    }
}
