package dev.keyright.seats.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.testing.MariaDb;
import dev.keyright.seats.testing.Nodes;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A start that cannot succeed ends with one clear Keyright message and, on Payara Micro started from its jar,
 * a process that exits non-zero (78), so that a service manager or a container sees it: a bad setting, a
 * database asked for but not configured, an unreachable database, wrong database credentials. With
 * {@code KEYRIGHT_EXIT_ON_FAILED_START=false} (other applications on the same Payara Micro) only the
 * deployment fails and the server keeps running, as on a full application server.
 */
@ExtendWith(MariaDb.class)
class FailedStartIT {

    private static final Duration LIMIT = Duration.ofSeconds(180);
    private static final Pattern MESSAGE = Pattern.compile("Keyright Seats could not start: (.*)");

    @TempDir
    Path work;

    @Test
    void aBadSettingEndsTheProcessWithOneMessageNamingIt() throws Exception {
        Nodes.Node node = Nodes.readmeCommand(Map.of("KEYRIGHT_DATA_DIR", work.resolve("data").toString(),
                "KEYRIGHT_DEFAULT_TTL_SECONDS", "two minutes"), work.resolve("bad-setting.log"));
        try {
            assertEquals(78, node.exitStatus(LIMIT), "a failed start is an exit a supervisor sees");
            String message = theOneMessage(node.log());
            assertTrue(message.contains("KEYRIGHT_DEFAULT_TTL_SECONDS must be a whole number, was 'two minutes'"), message);
            assertFalse(Files.exists(work.resolve("data").resolve("keyright.mv.db")), "nothing was written");
        } finally {
            node.kill();
        }
    }

    @Test
    void aDatabaseAskedForButNotConfiguredEndsTheProcessAndNeverFallsBackToTheEmbeddedOne() throws Exception {
        Nodes.Node node = Nodes.embedded(Map.of("KEYRIGHT_DATA_DIR", work.resolve("data").toString(),
                "KEYRIGHT_DB_URL", "jdbc:mariadb://127.0.0.1:3306/nowhere"), work.resolve("not-configured.log"));
        try {
            assertEquals(78, node.exitStatus(LIMIT));
            assertTrue(theOneMessage(node.log()).contains("Refusing to fall back to the embedded database"), node.log());
            assertFalse(Files.exists(work.resolve("data").resolve("keyright.mv.db")), "nothing was written to the embedded database");
        } finally {
            node.kill();
        }
    }

    @Test
    void anUnreachableDatabaseEndsTheProcessWithOneMessage() throws Exception {
        try (Nodes nodes = new Nodes(MariaDb.databaseName(), Map.of("KEYRIGHT_DB_URL", "jdbc:mariadb://127.0.0.1:1/keyright"))) {
            Nodes.Node node = nodes.launch();
            assertEquals(78, node.exitStatus(LIMIT));
            String message = theOneMessage(node.log());
            assertTrue(message.startsWith("Cannot reach the database behind jdbc/keyright"), message);
        }
    }

    @Test
    void wrongDatabaseCredentialsEndTheProcessWithOneMessage() throws Exception {
        try (Nodes nodes = new Nodes(MariaDb.databaseName(), Map.of("KEYRIGHT_DB_PASSWORD", "not-the-password"))) {
            Nodes.Node node = nodes.launch();
            assertEquals(78, node.exitStatus(LIMIT));
            String message = theOneMessage(node.log());
            assertTrue(message.startsWith("Cannot reach the database behind jdbc/keyright") && message.contains("Access denied"), message);
            assertFalse(message.contains("not-the-password"), "the password is never logged");
        }
    }

    @Test
    void withExitTurnedOffOnlyTheDeploymentFailsAndTheServerKeepsRunning() throws Exception {
        // Payara's full log (not the README's quiet one), which says when the server has finished starting
        Nodes.Node node = Nodes.embedded(Map.of("KEYRIGHT_DATA_DIR", work.resolve("data").toString(),
                "KEYRIGHT_DEFAULT_TTL_SECONDS", "two minutes", "KEYRIGHT_EXIT_ON_FAILED_START", "false"), work.resolve("stays.log"));
        try {
            long deadline = System.nanoTime() + LIMIT.toNanos();
            while (!node.log().contains("Payara Micro") || !node.log().contains("ready in")) {
                assertTrue(node.alive(), "the server keeps running: " + node.log());
                assertTrue(System.nanoTime() < deadline, "the server did not finish starting");
                Thread.sleep(250);
            }
            assertTrue(theMessages(node.log()) >= 1, node.log());
            HttpResponse<String> jwks = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    node.url().toURI().resolve(".well-known/jwks.json")).build(), HttpResponse.BodyHandlers.ofString());
            assertNotEquals(200, jwks.statusCode(), "the application is not served");
            assertTrue(node.alive());
        } finally {
            node.kill();
        }
    }

    /** The log holds exactly one Keyright failure message, and no stack trace; returns what it says. */
    private static String theOneMessage(String log) {
        assertEquals(1, theMessages(log), "one message, not several: " + log);
        assertFalse(log.contains("\tat "), "no stack trace: " + log);
        assertFalse(log.contains("Keyright Seats is ready"), log);
        Matcher matcher = MESSAGE.matcher(log);
        assertTrue(matcher.find());
        return matcher.group(1);
    }

    private static int theMessages(String log) {
        return (int) MESSAGE.matcher(log).results().count();
    }
}
