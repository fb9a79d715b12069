package dev.keyright.seats.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.testing.Api;
import dev.keyright.seats.testing.Nodes;
import jakarta.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The WAR deployed as it is, on the embedded default: data, the signing key and the generated admin
 * password survive a restart. Starts that fail: FailedStartIT.
 */
class EmbeddedRestartIT {

    private static final Pattern GENERATED = Pattern.compile("user 'admin', password '([^']+)'");

    @TempDir
    Path work;

    @Test
    void theEmbeddedDefaultKeepsLeasesKeysAndTheGeneratedPasswordAcrossARestart() throws Exception {
        Map<String, String> settings = Map.of("KEYRIGHT_DATA_DIR", work.resolve("data").toString());
        Nodes.Node first = Nodes.readmeCommand(settings, work.resolve("first.log"));
        String password;
        String key;
        String leaseId;
        String jwks;
        try {
            List<String> beforeReady = first.awaitReady(Duration.ofSeconds(240), Duration.ofMillis(20));
            assertEquals(List.of(), beforeReady, "while the README's command starts, its port is closed until the application"
                    + " serves (closed-until-deployed.asadmin, open-when-deployed.asadmin): no container error page, no 404"
                    + " or 500 before the first 200");
            assertEquals(java.util.Set.of("127.0.0.1:" + first.port()), listening(first.pid()),
                    "the README's command listens on its HTTP port only, on the loopback address only: no Hazelcast"
                            + " (--nohazelcast), nothing on the machine's other addresses (local-only.asadmin)");
            List<String> lines = first.log().lines().filter(line -> !line.isBlank()).toList();
            assertTrue(lines.size() <= 20, "the README's command logs a few plain lines, not Payara's hundreds: " + lines.size());
            assertFalse(first.log().contains("\u001b["), "no ANSI colours");
            assertFalse(first.log().contains("has expired"), "no dumps of Payara's expired CA certificates");
            assertFalse(first.log().contains("Payara Micro URLs"), "no list of every interface's URL");
            // After it only the web container's closing lines: two INFO on Payara 6 and the port's opening, and on
            // Payara 7 the web security module's WARNING "Context path from ServletContext:  differs from path from
            // bundle: /" at the first request.
            assertTrue(lines.stream().skip(Math.max(0, lines.size() - 5)).anyMatch(line -> line.contains("Keyright Seats is ready")),
                    "the ready line is among the last: " + lines);
            assertTrue(indexOf(lines, "Keyright Seats is ready")
                            < indexOf(lines, "Created HTTP listener http-listener on host/port 127.0.0.1:" + first.port()),
                    "the port is opened, and says so, after the ready line: " + lines);
            Matcher generated = GENERATED.matcher(first.log());
            assertTrue(generated.find(), "the first start prints the generated admin password once");
            password = generated.group(1);
            JsonObject license = admin(first, password, "{\"product\":\"restart\",\"seats\":2,\"ttlSeconds\":600}");
            key = license.getString("licenseKey");
            leaseId = first.api().acquire("restart", key, "inst-before").json().getString("leaseId");
            jwks = first.api().send("GET", "/.well-known/jwks.json", null, Map.of()).body();
        } finally {
            first.stop();
        }

        Nodes.Node second = Nodes.embedded(settings, work.resolve("second.log"));
        try {
            second.awaitReady(Duration.ofSeconds(240));
            String log = second.log();
            assertFalse(GENERATED.matcher(log).find(), "no new password is generated or printed");
            assertFalse(log.contains(password), "the password is never logged again");
            assertEquals(200, second.api().renew(key, leaseId).status(), "the lease survived the restart");
            assertEquals(1, second.api().pool("restart", key).json().getInt("inUse"));
            assertEquals(jwks, second.api().send("GET", "/.well-known/jwks.json", null, Map.of()).body(),
                    "the signing key survived the restart");
            assertEquals(200, status(second, password), "the generated password still opens the admin API");
        } finally {
            second.stop();
        }
        assertTrue(Files.exists(work.resolve("data").resolve("server.secret")));
        assertEquals("rwx------", permissions(work.resolve("data")), "the data folder is the server user's alone");
        assertEquals("rw-------", permissions(work.resolve("data").resolve("keyright.mv.db")), "the embedded database file too");
        assertEquals("rw-------", permissions(work.resolve("data").resolve("server.secret")));
    }

    /** The TCP addresses and ports a process listens on, as {@code ss} tells (iproute2, on every machine of this kind). */
    private static java.util.Set<String> listening(long pid) throws Exception {
        Process ss = new ProcessBuilder("ss", "-Hltnp").redirectErrorStream(true).start();
        String out = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, ss.waitFor(), out);
        java.util.Set<String> listening = new java.util.TreeSet<>();
        for (String line : out.split("\n")) {
            if (line.contains("pid=" + pid + ",")) {
                // an IPv4 address on a dual-stack socket shows as [::ffff:127.0.0.1]:8080
                listening.add(line.trim().split("\\s+")[3].replace("[::ffff:", "").replace("]", ""));
            }
        }
        return listening;
    }

    private static String permissions(Path path) throws java.io.IOException {
        return java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }

    @Test
    void aConfiguredPasswordIsUsedAndNeverLogged() throws Exception {
        Nodes.Node node = Nodes.embedded(Map.of("KEYRIGHT_DATA_DIR", work.resolve("data2").toString(),
                "KEYRIGHT_ADMIN_PASSWORD", "a-configured-Secret-42"), work.resolve("configured.log"));
        try {
            node.awaitReady(Duration.ofSeconds(240));
            assertEquals(200, status(node, "a-configured-Secret-42"));
            assertEquals(401, status(node, "not-the-password"));
            String log = node.log();
            assertFalse(log.contains("a-configured-Secret-42"), "the admin password is never logged");
            assertFalse(GENERATED.matcher(log).find());
        } finally {
            node.stop();
        }
    }

    private static JsonObject admin(Nodes.Node node, String password, String body) {
        String basic = Base64.getEncoder().encodeToString(("admin:" + password).getBytes(StandardCharsets.UTF_8));
        Api.Reply reply = node.api().send("POST", "/v1/admin/licenses", body,
                Map.of("Authorization", "Basic " + basic, "Content-Type", "application/json"));
        assertEquals(201, reply.status(), reply.toString());
        return reply.json();
    }

    private static int status(Nodes.Node node, String password) {
        String basic = Base64.getEncoder().encodeToString(("admin:" + password).getBytes(StandardCharsets.UTF_8));
        return node.api().send("GET", "/v1/admin/licenses", null, Map.of("Authorization", "Basic " + basic)).status();
    }

    /** The index of the first line containing {@code part}, or {@link Integer#MAX_VALUE} when none does. */
    private static int indexOf(List<String> lines, String part) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(part)) {
                return i;
            }
        }
        return Integer.MAX_VALUE;
    }
}
