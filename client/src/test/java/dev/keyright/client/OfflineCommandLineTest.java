package dev.keyright.client;

import static dev.keyright.client.FakeOfflineServer.START;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.client.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.jose4j.json.JsonUtil;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code keyright-client borrow|return|activate|deactivate|status}, driven through {@link Main} with the in-memory server. */
class OfflineCommandLineTest {

    private static final String MACHINE = ActivationTest.THIS_MACHINE;

    @TempDir
    Path home;

    private final FakeOfflineServer server = new FakeOfflineServer();
    private final WallClock clock = new WallClock(START);
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final Map<String, String> environment = new HashMap<>();

    @BeforeEach
    void environment() {
        environment.put("KEYRIGHT_SERVER", "http://127.0.0.1:1");
        environment.put("KEYRIGHT_PRODUCT", FakeOfflineServer.PRODUCT);
        environment.put("KEYRIGHT_LICENSE_KEY", FakeOfflineServer.LICENSE_KEY);
        environment.put("KEYRIGHT_CLIENT_INSTANCE_ID", "inst-cli");
        environment.put("KEYRIGHT_HOME", home.toString());
    }

    /** The CLI against the in-memory server, on the test's wall clock, as this machine. */
    private int cli(String... args) {
        return cli(builder -> builder.machineFingerprint(MACHINE), args);
    }

    private int cli(UnaryOperator<KeyrightClientBuilder> more, String... args) {
        out.reset();
        err.reset();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        return new Main(environment, o, e, builder -> more.apply(builder.transport(server).clock(clock)
                .issuer(FakeOfflineServer.ISSUER))).run(args);
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private Map<String, Object> outJson() throws Exception {
        return JsonUtil.parseJson(out().trim());
    }

    private Path storeFile() {
        return home.resolve(FakeOfflineServer.PRODUCT).resolve("offline.json");
    }

    private void assertNoStackTrace() {
        assertFalse(err().contains("\tat ") || err().contains("Exception"), err());
        assertFalse(out().contains("\tat ") || out().contains("Exception"), out());
    }

    @Test
    void borrowsASeatThatStatusShowsOfflineUntilItEnds() throws Exception {
        assertEquals(0, cli("borrow", "8h"));
        assertEquals("Borrowed a seat of acme-studio until 2026-12-04T20:00:00Z (lease_1); "
                + "'keyright-client return' gives it back early.\n", out());
        assertTrue(Files.exists(storeFile()), "kept under KEYRIGHT_HOME");

        server.down = true;
        environment.remove("KEYRIGHT_SERVER");
        environment.remove("KEYRIGHT_LICENSE_KEY");
        clock.set(START.plus(Duration.ofHours(8)));
        assertEquals(0, cli("status"), err());
        assertEquals("acme-studio (offline store " + storeFile() + "):\n"
                + "  borrowed seat: lease_1, until 2026-12-04T20:00:00Z\n"
                + "  activation: none\n", out());

        assertEquals(0, cli("status", "--json"));
        assertEquals(Map.of("product", "acme-studio", "store", storeFile().toString(),
                "borrowed", Map.of("valid", true, "leaseId", "lease_1", "borrowedUntil", "2026-12-04T20:00:00Z")),
                withoutNulls(outJson()));
        assertTrue(outJson().containsKey("activation") && outJson().get("activation") == null);

        clock.advance(Duration.ofSeconds(1));
        assertEquals(79, cli("status"));
        assertTrue(out().contains("  borrowed seat: refused: The borrowed seat of acme-studio ran out at "
                + "2026-12-04T20:00:00Z (the clock shows 2026-12-04T20:00:01Z).\n"), out());
        assertEquals(79, cli("status", "--json"));
        Map<?, ?> refused = (Map<?, ?>) outJson().get("borrowed");
        assertEquals(false, refused.get("valid"));
        assertEquals("expired", refused.get("reason"));
        assertEquals("2026-12-04T20:00:00Z", refused.get("expiredAt"));
        assertNoStackTrace();
    }

    @Test
    void borrowSaysItsResultAsJson() throws Exception {
        assertEquals(0, cli("borrow", "2d", "--json"));
        assertEquals(Map.of("product", "acme-studio", "leaseId", "lease_1", "borrowedUntil", "2026-12-06T12:00:00Z"),
                outJson());
        assertEquals("{\"hours\":48}", server.bodies.get(server.bodies.size() - 1));
    }

    @Test
    void returnsTheBorrowedSeatAndSaysWhenNothingIsBorrowed() throws Exception {
        cli("borrow", "8h");

        assertEquals(0, cli("return"));
        assertEquals("Returned the borrowed seat of acme-studio.\n", out());
        assertEquals("release lease_1", server.calls.get(server.calls.size() - 1));
        assertFalse(Files.exists(storeFile()));

        assertEquals(3, cli("return"));
        assertEquals("No seat of acme-studio is borrowed here.\n", out());
        assertEquals(3, cli("return", "--json"));
        assertEquals(Map.of("product", "acme-studio", "returned", false), outJson());
        assertEquals(3, cli("status"), "nothing held");
        assertTrue(out().contains("  borrowed seat: none\n  activation: none\n"), out());
    }

    @Test
    void aBorrowTheLicenseDoesNotAllowExits77() {
        server.maxBorrowHours = 0;
        assertEquals(77, cli("borrow", "8h"));
        assertEquals("keyright: The license does not allow borrowing seats for offline use.\n", err());

        server.maxBorrowHours = 72;
        server.model = "node-locked";
        assertEquals(77, cli("borrow", "8h"));
        assertTrue(err().contains("The license is node-locked: activate this machine ('keyright-client activate')"), err());
        assertNoStackTrace();
    }

    @Test
    void activatesShowsAndDeactivatesThisMachine() throws Exception {
        server.model = "node-locked";
        assertEquals(0, cli("activate"));
        String id = server.liveActivations().get(0);
        assertEquals("Activated acme-studio on this machine (" + id + ", 1 of 2 activations in use); "
                + "usable offline until 2027-01-03T12:00:00Z.\n", out());

        server.down = true;
        assertEquals(0, cli("status"));
        assertEquals("acme-studio (offline store " + storeFile() + "):\n"
                + "  borrowed seat: none\n"
                + "  activation: " + id + ", fingerprint " + MACHINE + ", usable offline until 2027-01-03T12:00:00Z\n",
                out());
        assertEquals(0, cli("status", "--json"));
        assertEquals(Map.of("valid", true, "activationId", id, "fingerprint", MACHINE,
                "expiresAt", "2027-01-03T12:00:00Z", "revalidateAfter", "2026-12-05T12:00:00Z",
                "activationsInUse", 1L, "maxActivations", 2L), outJson().get("activation"));

        assertEquals(79, cli(builder -> builder.machineFingerprint(ActivationTest.OTHER_MACHINE), "status"),
                "the store of another machine");
        assertTrue(out().contains("  activation: refused: The activation " + id + " of acme-studio is for another machine"),
                out());

        server.down = false;
        assertEquals(0, cli("deactivate"));
        assertEquals("Deactivated acme-studio on this machine; its activation is free.\n", out());
        assertEquals(List.of(), server.liveActivations());
        assertEquals(3, cli("deactivate", "--json"));
        assertEquals(Map.of("product", "acme-studio", "deactivated", false), outJson());
    }

    @Test
    void activatesUnderTheFingerprintGivenAndStatusChecksWithIt() throws Exception {
        server.model = "node-locked";
        String mine = "render-node-07.example";

        assertEquals(0, cli(UnaryOperator.identity(), "activate", "--fingerprint", mine, "--json"));
        assertEquals(mine, outJson().get("fingerprint"));
        assertEquals(mine, JsonUtil.parseJson(server.bodies.get(0)).get("fingerprint"));
        assertEquals(0, cli(UnaryOperator.identity(), "status", "--fingerprint", mine));
        assertTrue(out().contains("fingerprint " + mine), out());
    }

    @Test
    void activatingWithTheDefaultFingerprintUsesThisMachinesIdentity() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(Path.of("/etc/machine-id"))
                && System.getProperty("os.name").startsWith("Linux"), "a Linux machine with /etc/machine-id");
        server.model = "node-locked";

        assertEquals(0, cli(UnaryOperator.identity(), "activate", "--json"));

        assertEquals(MachineFingerprint.of(FakeOfflineServer.PRODUCT), outJson().get("fingerprint"));
        assertEquals(0, cli(UnaryOperator.identity(), "status"));
    }

    @Test
    void fullActivationsExit69AndATamperedStoreExits79() throws Exception {
        server.model = "node-locked";
        server.maxActivations = 1;
        cli(builder -> builder.machineFingerprint(ActivationTest.OTHER_MACHINE), "activate");

        assertEquals(69, cli("activate"));
        assertEquals("keyright: The one activation of the license is in use: deactivate a machine first "
                + "('keyright-client deactivate' on it).\n", err());

        cli(builder -> builder.machineFingerprint(ActivationTest.OTHER_MACHINE), "deactivate");
        cli("activate");
        Files.writeString(storeFile(), Files.readString(storeFile()).replace("\"maxActivations\":1,\"certificate\":\"ey",
                "\"maxActivations\":1,\"certificate\":\"eX"));
        assertEquals(79, cli("status", "--json"));
        assertEquals("invalid", ((Map<?, ?>) outJson().get("activation")).get("reason"));
        assertNoStackTrace();
    }

    @Test
    void aClockBehindTheServersIsSaidAtTheBorrowWithExit79() {
        clock.set(START.minus(Duration.ofHours(1)));

        assertEquals(79, cli("borrow", "8h"));

        assertTrue(err().startsWith("keyright: This machine's clock shows 2026-12-04T11:00:00Z, before 2026-12-04T12:00:00Z"),
                err());
        assertFalse(Files.exists(storeFile()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"borrow", "borrow 30m", "borrow 721h", "borrow 8x", "borrow 8h 9h", "return now",
            "activate --fingerprint short", "deactivate x", "pool --fingerprint render-node-07.example", "status extra"})
    void exits2OnBadUsage(String line) {
        assertEquals(2, cli(line.split(" ")));
        assertTrue(err().contains("Usage: keyright-client"), err());
        assertEquals(List.of(), server.calls);
    }

    @Test
    void statusNeedsAProductButNoServerNorKey() {
        environment.clear();
        environment.put("KEYRIGHT_HOME", home.toString());
        assertEquals(2, cli("status"));
        assertTrue(err().contains("no product"), err());
        assertEquals(3, cli("status", "--product", FakeOfflineServer.PRODUCT));
    }

    @Test
    void theHelpNamesTheNewCommandsAndExitCodes() {
        assertEquals(0, cli("--help"));
        for (String said : List.of("borrow DURATION", "return", "activate [--fingerprint F]", "deactivate",
                "status [--fingerprint F]", "KEYRIGHT_HOME", "79 an offline license failed its check")) {
            assertTrue(out().contains(said), said + " in " + out());
        }
    }

    private static Map<String, Object> withoutNulls(Map<String, Object> json) {
        Map<String, Object> copy = new HashMap<>(json);
        copy.values().removeIf(java.util.Objects::isNull);
        return copy;
    }
}
