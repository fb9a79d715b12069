package dev.keyright.client;

import org.jose4j.json.JsonUtil;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.client.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The seat-wrapper CLI ({@code dev.keyright.client.cli.Main}) against the fake server. */
class CommandLineTest {

    private FakeKeyrightServer server;
    private FakeSeatService seats;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final Map<String, String> environment = new HashMap<>();
    private final ManualTime time = new ManualTime();

    @BeforeEach
    void startServer() throws Exception {
        server = new FakeKeyrightServer();
        seats = server.service;
        environment.put("KEYRIGHT_SERVER", server.uri().toString());
        environment.put("KEYRIGHT_PRODUCT", FakeSeatService.PRODUCT);
        environment.put("KEYRIGHT_LICENSE_KEY", FakeSeatService.LICENSE_KEY);
        environment.put("KEYRIGHT_CLIENT_INSTANCE_ID", "inst-cli");
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    private int cli(String... args) {
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        return new Main(environment, o, e).run(args);
    }

    private CompletableFuture<Integer> cliInBackground(String... args) {
        return CompletableFuture.supplyAsync(() -> cli(args));
    }

    /** {@code run --kill-on-loss -- sleep 30} on 3 s leases renewed every second, once it has renewed lease_1. */
    private CompletableFuture<Integer> runWithKillOnLossPastItsFirstRenewal() throws Exception {
        seats.ttlSeconds = 3;
        seats.renewAfterSeconds = 1;
        CompletableFuture<Integer> run = cliInBackground("run", "--kill-on-loss", "--", "sleep", "30");
        await(() -> seats.calls.contains("renew lease_1"), "a first renewal");
        return run;
    }

    /** The CLI on fake time, against the fake as a server that queues (API v2) and whose holds let that time pass. */
    private int cliQueueing(String... args) {
        seats.queueing = true;
        seats.clock = time;
        return cliOnFakeTime(args);
    }

    /** The CLI on fake time, without jitter. */
    private int cliOnFakeTime(String... args) {
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        return new Main(environment, o, e, builder -> builder.ticker(time).sleeper(time).scheduler(time)
                .random(() -> 0.0)).run(args);
    }

    private List<Map<String, Object>> events() throws Exception {
        List<Map<String, Object>> events = new java.util.ArrayList<>();
        for (String line : err().split("\n")) {
            if (!line.isBlank()) events.add(JsonUtil.parseJson(line));
        }
        return events;
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("timed out waiting for " + what);
            Thread.sleep(10);
        }
    }

    private void assertNoStackTrace() {
        assertFalse(err().contains("\tat ") || err().contains("Exception"), err());
        assertFalse(out().contains("\tat ") || out().contains("Exception"), out());
    }

    @Test
    void runsACommandUnderASeatAndExitsWithItsCode() {
        assertEquals(3, cli("run", "--", "sh", "-c", "exit 3"));

        assertEquals("acquire", seats.calls.get(0));
        assertEquals("release lease_1", seats.calls.get(seats.calls.size() - 1));
        assertEquals(List.of("inst-cli"), seats.clientInstanceIds);
        assertTrue(seats.liveLeases().isEmpty());
    }

    @Test
    void takesItsSettingsFromFlagsToo() {
        environment.clear();
        environment.put("KEYRIGHT_CLIENT_INSTANCE_ID", "inst-cli");
        assertEquals(0, cli("run", "--server", server.uri().toString(), "--product=" + FakeSeatService.PRODUCT,
                "--key", FakeSeatService.LICENSE_KEY, "--issuer", FakeSeatService.ISSUER, "--", "true"));
        assertEquals("release lease_1", seats.calls.get(seats.calls.size() - 1));
    }

    @Test
    void waitsForASeatToFreeUp() throws Exception {
        String first = seats.holdSeatFor("inst-a");
        seats.holdSeatFor("inst-b");

        CompletableFuture<Integer> run = cliInBackground("run", "--wait", "30s", "--", "sh", "-c", "exit 0");
        await(() -> err().contains("keyright: All 2 seats are in use, waiting 0:0"), "the waiting message");
        seats.free(first);

        assertEquals(0, run.get(10, TimeUnit.SECONDS));
        assertTrue(seats.calls.contains("release lease_3"), seats.calls.toString());
    }

    @Test
    void exits69WhenNoSeatFreesUpInTheBudget() {
        seats.maxSeats = 0;
        assertEquals(69, cli("run", "--", "true"));
        assertTrue(err().contains("All 0 seats are in use."), err());
        assertFalse(seats.calls.contains("release lease_1"));

        err.reset();
        seats.maxSeats = 1;
        seats.holdSeatFor("inst-a");
        seats.retryAfterSeconds = 5;
        assertEquals(69, cliOnFakeTime("acquire", "--wait", "2s"));
        assertTrue(err().contains("All 1 seat is in use: no seat freed up within 2s."), err());
        assertNoStackTrace();
    }

    @Test
    void showsItsPlaceInLineAndTheTimeWaitedWhileQueued() {
        seats.maxSeats = 1;
        String other = seats.holdSeatFor("inst-a");
        seats.queueUp("inst-b");
        seats.queueUp("inst-c");
        seats.duringHold = hold -> {
            if (hold == 2) seats.leaveQueue("inst-b");
            if (hold == 3) seats.leaveQueue("inst-c");
            if (hold == 63) seats.free(other);
        };

        assertEquals(0, cliQueueing("acquire", "--wait", "2h"));

        assertEquals("lease_2\n", out());
        List<String> lines = List.of(err().split("\n"));
        assertEquals(List.of("keyright: 3rd in line, waiting 0:01", "keyright: 2nd in line, waiting 0:21",
                "keyright: 1st in line, waiting 0:41", "keyright: 1st in line, waiting 1:21"), lines.subList(0, 4),
                "the place at once (a 1 s first hold), then each change, else a line every 30 s at most (20 s holds)");
        assertEquals("keyright: 1st in line, waiting 20:01", lines.get(lines.size() - 1));
        assertEquals(32, lines.size());
        assertEquals(63, seats.prefers.size());
    }

    @Test
    void saysHowLongItHasWaitedEveryHalfMinuteAtMostOnAServerThatDoesNotQueue() {
        seats.maxSeats = 1;
        seats.holdSeatFor("inst-a");
        seats.retryAfterSeconds = 5;

        assertEquals(69, cliOnFakeTime("acquire", "--wait", "2m"));

        assertEquals(List.of("keyright: All 1 seat is in use, waiting 0:00", "keyright: All 1 seat is in use, waiting 0:30",
                "keyright: All 1 seat is in use, waiting 1:00", "keyright: All 1 seat is in use, waiting 1:30",
                "keyright: All 1 seat is in use, waiting 2:00",
                "keyright: All 1 seat is in use: no seat freed up within 2m."), List.of(err().split("\n")));
        assertEquals(Duration.ofSeconds(120), time.sleeps.stream().reduce(Duration.ZERO, Duration::plus), "the whole 2 minutes");
    }

    @Test
    void givesUpItsPlaceWhenTheWaitEnds() {
        seats.maxSeats = 1;
        seats.holdSeatFor("inst-a");
        seats.queueUp("inst-b");

        assertEquals(69, cliQueueing("acquire", "--wait", "30s"));

        assertEquals("keyright: 2nd in line, waiting 0:01\n"
                + "keyright: All 1 seat is in use: no seat freed up within 30s.\n", err());
        assertEquals(List.of("acquire", "acquire", "acquire", "leave-queue inst-cli"), seats.calls);
        assertEquals(List.of("wait=1", "wait=20", "wait=9"), seats.prefers);
    }

    @Test
    void reportsTheWaitAndTheSeatAsJsonEvents() throws Exception {
        seats.maxSeats = 1;
        String other = seats.holdSeatFor("inst-a");
        seats.queueUp("inst-b");
        seats.duringHold = hold -> {
            if (hold == 2) seats.leaveQueue("inst-b");
            if (hold == 3) seats.free(other);
        };

        assertEquals(0, cliQueueing("run", "--wait", "2h", "--json", "--", "true"));

        List<Map<String, Object>> events = events();
        assertEquals(Map.of("event", "queued", "position", 2L, "waitedSeconds", 1L), events.get(0));
        assertEquals(Map.of("event", "queued", "position", 1L, "waitedSeconds", 21L), events.get(1));
        assertEquals(Map.of("event", "acquired", "leaseId", "lease_2",
                "expiresAt", FakeSeatService.NOW.plusSeconds(120).toString()), events.get(2));
        assertEquals(Map.of("event", "released", "leaseId", "lease_2"), events.get(3));
        assertEquals(4, events.size(), err());
        assertEquals("release lease_2", seats.calls.get(seats.calls.size() - 1));
    }

    @Test
    void reportsEachRenewalAsAJsonEvent() throws Exception {
        java.nio.file.Path done = java.nio.file.Files.createTempFile("keyright-run", ".done");
        java.nio.file.Files.delete(done);
        CompletableFuture<Integer> run = CompletableFuture.supplyAsync(() -> cliQueueing("run", "--json", "--", "sh", "-c",
                "while [ ! -e '" + done + "' ]; do sleep 0.05; done"));
        await(() -> err().contains("\"acquired\""), "the acquired event");

        time.advance(Duration.ofSeconds(45)); // renewAfterSeconds 40 (+-10%): one renewal runs, on this thread
        java.nio.file.Files.createFile(done);

        assertEquals(0, run.get(10, TimeUnit.SECONDS));
        java.nio.file.Files.deleteIfExists(done);
        List<Map<String, Object>> events = events();
        assertEquals(List.of("acquired", "renewed", "released"),
                events.stream().map(e -> e.get("event")).collect(java.util.stream.Collectors.toList()), err());
        assertEquals("lease_1", events.get(1).get("leaseId"));
        assertEquals(FakeSeatService.NOW.plusSeconds(120).toString(), events.get(1).get("expiresAt"));
    }

    @Test
    void stopsTheCommandWhenTheSeatIsLostWithKillOnLoss() throws Exception {
        CompletableFuture<Integer> run = runWithKillOnLossPastItsFirstRenewal();
        seats.maxSeats = 0; // first: a re-acquire must find the pool full
        seats.expire("lease_1");

        assertEquals(75, run.get(10, TimeUnit.SECONDS));
        assertTrue(err().contains("the seat was lost"), err());
        assertTrue(err().contains("stopping the command"), err());
    }

    @Test
    void aRevokeThatBlocksTheInstallStopsTheCommandAndTheCliDoesNotAcquireAgain() throws Exception {
        CompletableFuture<Integer> run = runWithKillOnLossPastItsFirstRenewal();
        seats.revokeAndBlock("lease_1", FakeSeatService.NOW.plusSeconds(3600));

        assertEquals(75, run.get(10, TimeUnit.SECONDS));
        assertTrue(err().contains("An administrator blocked this install until " + FakeSeatService.NOW.plusSeconds(3600)), err());
        assertTrue(err().contains("not acquiring a seat again"), err());
        assertEquals(2, seats.calls.stream().filter(c -> c.equals("acquire")).count(), "one acquire after the revoke: " + seats.calls);
        assertNoStackTrace();
    }

    @Test
    void aBlockedInstallExits78AndSaysUntilWhenAlsoAsAJsonEvent() throws Exception {
        String held = seats.holdSeatFor("inst-cli");
        seats.revokeAndBlock(held, FakeSeatService.NOW.plusSeconds(600));

        assertEquals(78, cli("acquire", "--wait", "5m"));
        assertTrue(err().contains("An administrator blocked this install until 2026-11-13T14:40:05Z"), err());
        assertEquals(1, seats.calls.stream().filter(c -> c.equals("acquire")).count(), "no waiting on a block: " + seats.calls);
        err.reset();
        assertEquals(78, cli("run", "--json", "--", "true"));
        Map<String, Object> event = events().get(events().size() - 1);
        assertEquals("error", event.get("event"));
        assertEquals(78L, event.get("exitCode"));
        assertEquals("https://keyright.dev/problems/install-blocked", event.get("type"));
    }

    @Test
    void exits127WhenTheCommandDoesNotExist() {
        assertEquals(127, cli("run", "--", "/nonexistent/keyright-test-program"));
        assertTrue(err().contains("cannot run /nonexistent/keyright-test-program"), err());
        assertEquals("release lease_1", seats.calls.get(seats.calls.size() - 1));
        assertNoStackTrace();
    }

    @Test
    void acquiresRenewsAndReleasesForScripts() throws Exception {
        assertEquals(0, cli("acquire"));
        assertEquals("lease_1\n", out());
        out.reset();
        assertEquals(0, cli("renew", "lease_1", "--json"));
        Map<String, Object> lease = JsonUtil.parseJson(out().trim());
        assertEquals("lease_1", lease.get("leaseId"));
        assertEquals(120L, lease.get("ttlSeconds"));
        out.reset();
        assertEquals(0, cli("release", "lease_1"));
        assertEquals("Released lease_1.\n", out());
        out.reset();
        assertEquals(3, cli("release", "lease_1"), "a lease no longer held is said so, with its own exit code");
        assertEquals("lease_1 was not held (already released, expired or revoked); the seat is free.\n", out());
        out.reset();
        assertEquals(3, cli("release", "lease_1", "--json"));
        assertEquals(Map.of("notHeld", "lease_1"), JsonUtil.parseJson(out().trim()));
    }

    @Test
    void showsThePool() throws Exception {
        seats.holdSeatFor("inst-a");
        assertEquals(0, cli("pool"));
        assertTrue(out().startsWith("acme-studio: 1 of 2 seats in use\n  r.okafor@lab-ws-14  since "), out());
        assertFalse(out().contains("inst-a"), "the pool shows no client instance ids");
        out.reset();
        assertEquals(0, cli("pool", "--json"));
        Map<String, Object> pool = JsonUtil.parseJson(out().trim());
        assertEquals(1L, pool.get("inUse"));
        assertEquals(2L, pool.get("max"));
    }

    @Test
    void aHolderWhoDidNotSayWhoItIsShowsAsNullInJsonAndUnnamedInTheTable() throws Exception {
        seats.holdSeatFor("unnamed-1");
        assertEquals(0, cli("pool", "--json"));
        Map<String, Object> holder = (Map<String, Object>) ((List<?>) JsonUtil.parseJson(out().trim()).get("holders")).get(0);
        assertTrue(holder.containsKey("user") && holder.get("user") == null, "the server's null, not \"\": " + holder);
        assertTrue(holder.containsKey("host") && holder.get("host") == null, holder.toString());
        out.reset();
        assertEquals(0, cli("pool"));
        assertTrue(out().contains("  (unnamed)  since "), out());
    }

    @Test
    void exits77ForARefusedLicenseKeyWithoutAStackTrace() {
        environment.put("KEYRIGHT_LICENSE_KEY", "WRONG");
        assertEquals(77, cli("run", "--", "true"));
        assertTrue(err().contains("The license key was refused"), err());
        assertNoStackTrace();
    }

    @Test
    void exits69WhenTheServerIsUnreachable() {
        server.close();
        assertEquals(69, cli("pool"));
        assertTrue(err().contains("The license server is unavailable"), err());
        assertNoStackTrace();
    }

    @Test
    void reportsEventsAsJsonLines() throws Exception {
        seats.maxSeats = 0;
        assertEquals(69, cli("acquire", "--json"));
        Map<String, Object> event = JsonUtil.parseJson(err().trim());
        assertEquals("error", event.get("event"));
        assertEquals(69L, event.get("exitCode"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "frobnicate", "run", "run true", "run --", "pool --bogus", "pool --wait forever",
            "pool --wait", "release", "release a b", "pool -- true", "acquire --kill-on-loss", "pool --json=yes"})
    void exits2OnBadUsage(String line) {
        assertEquals(2, cli(line.isEmpty() ? new String[0] : line.split(" ")));
        assertTrue(err().contains("Usage: keyright-client"), err());
        assertEquals("", out());
        assertNoStackTrace();
        assertEquals(List.of(), seats.calls);
    }

    @Test
    void exits2WithoutServerProductOrKey() {
        environment.remove("KEYRIGHT_SERVER");
        assertEquals(2, cli("pool"));
        assertTrue(err().contains("no server"), err());
        environment.put("KEYRIGHT_SERVER", "ftp://x");
        assertEquals(2, cli("pool"));
        environment.put("KEYRIGHT_SERVER", server.uri().toString());
        environment.remove("KEYRIGHT_LICENSE_KEY");
        assertEquals(2, cli("pool"));
        assertTrue(err().contains("no license key"), err());
        environment.put("KEYRIGHT_LICENSE_KEY", "k");
        environment.put("KEYRIGHT_CLIENT_INSTANCE_ID", "bad id!");
        assertEquals(2, cli("pool"));
        assertNoStackTrace();
    }

    @Test
    void printsHelp() {
        assertEquals(0, cli("--help"));
        assertTrue(out().contains("Exit codes:"), out());
    }
}
