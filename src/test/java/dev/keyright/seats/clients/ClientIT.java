package dev.keyright.seats.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.client.Activation;
import dev.keyright.client.ActivationsExhaustedException;
import dev.keyright.client.BorrowedSeat;
import dev.keyright.client.BorrowingNotAllowedException;
import dev.keyright.client.ClockRolledBackException;
import dev.keyright.client.KeyrightClient;
import dev.keyright.client.MachineFingerprint;
import dev.keyright.client.OfflineLicenseExpiredException;
import dev.keyright.client.OfflineLicenseNotFoundException;
import dev.keyright.client.WrongMachineException;
import dev.keyright.seats.activations.ActivationsIT;
import dev.keyright.client.Lease;
import dev.keyright.client.LeaseExpiredException;
import dev.keyright.client.SeatKeepAlive;
import dev.keyright.client.SeatState;
import dev.keyright.client.SeatsExhaustedException;
import dev.keyright.seats.testing.OnTheServer;
import dev.keyright.seats.testing.CliJar;
import dev.keyright.seats.testing.Api;
import dev.keyright.seats.testing.Deployments;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jboss.arquillian.container.test.api.Deployment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The client SDK and the keyright-client CLI against the real server. */
class ClientIT extends OnTheServer {

    @TempDir
    Path home;

    private record License(String id, String product, String key) {
    }

    private License license(int seats, int ttl, int skew) {
        String product = uniqueProduct("cli");
        JsonObject created = api().createLicense(product, seats, ttl, skew);
        return new License(created.getString("licenseId"), product, created.getString("licenseKey"));
    }

    private String server() {
        String text = Deployments.loopback(base).toString();
        return text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
    }

    private KeyrightClient client(License license, String install) {
        return KeyrightClient.builder().server(server()).product(license.product()).licenseKey(license.key())
                .clientInstanceId(install).issuer("keyright-seats").build();
    }

    @Test
    void theSdkLifecycleAgainstTheServer() {
        License license = license(1, 30, 2);
        KeyrightClient first = client(license, "sdk-a");
        KeyrightClient second = client(license, "sdk-b");

        Lease lease = first.acquireSeat(Map.of("user", "sdk", "host", "ci"));
        assertEquals(1, lease.seatsInUse());
        assertEquals(1, first.getSeatPool().inUse());
        SeatsExhaustedException full = assertThrows(SeatsExhaustedException.class, second::acquireSeat);
        assertEquals(1, full.maxSeats());

        Lease renewed = first.renewSeat(lease);
        assertEquals(lease.leaseId(), renewed.leaseId());
        first.releaseSeat(renewed);
        first.releaseSeat(renewed); // already gone: still fine
        assertEquals(0, first.getSeatPool().inUse());
        assertThrows(LeaseExpiredException.class, () -> first.renewSeat(renewed));
        assertNotEquals(lease.leaseId(), second.acquireSeat().leaseId());
    }

    @Test
    void theKeepAliveHoldsTheSeatAndCloseReleasesIt() throws Exception {
        License license = license(1, 3, 0);
        KeyrightClient client = client(license, "keepalive");
        Lease lease = client.acquireSeat();
        List<SeatState> states = new ArrayList<>();
        try (SeatKeepAlive seat = client.keepAlive(lease, (previous, current, cause) -> states.add(current))) {
            // TTL 3 s, renewed about every second: wait until the server's expiry moved well past a TTL.
            java.time.Instant target = lease.expiresAt().plusSeconds(4);
            assertTrue(waitFor(Duration.ofSeconds(20), () -> !client.getSeatPool().holders().isEmpty()
                    && !client.getSeatPool().holders().get(0).expiresAt().isBefore(target)), "renewals moved the expiry");
            assertEquals(SeatState.HELD, seat.state());
            assertEquals(1, client.getSeatPool().inUse());
        }
        assertEquals(0, client.getSeatPool().inUse(), "close() released the seat");
        assertTrue(!states.contains(SeatState.LOST), states.toString());
    }

    @Test
    void theCliRunsACommandUnderASeatAndReleasesIt() throws Exception {
        License license = license(2, 30, 2);
        Path marker = home.resolve("running");
        Path done = home.resolve("done");
        Process run = cli(license, "run", "--", "sh", "-c",
                "touch " + marker + "; while [ ! -f " + done + " ]; do sleep 0.1; done; exit 7");
        assertTrue(waitFor(Duration.ofSeconds(30), () -> Files.exists(marker)));
        Api api = api();
        assertEquals(1, api.pool(license.product(), license.key()).json().getInt("inUse"), "held while the command runs");
        Files.writeString(done, "x");
        assertTrue(run.waitFor(30, TimeUnit.SECONDS));
        assertEquals(7, run.exitValue(), "the command's exit code");
        assertEquals(0, api.pool(license.product(), license.key()).json().getInt("inUse"), "released when it exits");
    }

    @Test
    void aPlainRevokeLetsTheCliComeBackButARevokeThatBlocksStopsItForGood() throws Exception {
        License license = license(2, 3, 0);
        Api api = api();
        Path marker = home.resolve("blocked-started");
        Process run = cli(license, "run", "--kill-on-loss", "--", "sh", "-c", "touch " + marker + "; sleep 120");
        assertTrue(waitFor(Duration.ofSeconds(30), () -> Files.exists(marker)));
        String first = holderLease(license);

        assertEquals(204, api.admin("DELETE", "/v1/admin/licenses/" + license.id() + "/leases/" + first, null).status());
        assertTrue(waitFor(Duration.ofSeconds(20), () -> { String now = holderLease(license); return now != null && !now.equals(first); }),
                "after a plain revoke the CLI acquires again under a new lease id");
        assertTrue(run.isAlive());

        String second = holderLease(license);
        assertEquals(204, api.admin("DELETE", "/v1/admin/licenses/" + license.id() + "/leases/" + second + "?blockSeconds=600", null).status());
        assertTrue(run.waitFor(30, TimeUnit.SECONDS), "the seat is lost and the command stopped");
        assertEquals(75, run.exitValue());
        assertTrue(Files.readString(errors.get(run)).contains("An administrator blocked this install until"), Files.readString(errors.get(run)));
        assertEquals(0, api.pool(license.product(), license.key()).json().getInt("inUse"), "and it did not come back");
        assertEquals(2L, dev.keyright.seats.testing.Tables.count("SELECT COUNT(*) FROM lease_event WHERE license_id = ? AND kind = 'GRANT'",
                license.id()), "two grants: the first and the one after the plain revoke, none after the block");
    }

    private String holderLease(License license) {
        var holders = api().admin("GET", "/v1/admin/licenses/" + license.id(), null).json().getJsonObject("pool").getJsonArray("holders");
        return holders.isEmpty() ? null : holders.getJsonObject(0).getString("leaseId");
    }

    @Test
    void aCliKilledWithSigkillLeavesASeatThatExpiresByTtl() throws Exception {
        License license = license(1, 4, 0);
        Path marker = home.resolve("started");
        Process run = cli(license, "run", "--", "sh", "-c", "touch " + marker + "; sleep 60");
        assertTrue(waitFor(Duration.ofSeconds(30), () -> Files.exists(marker)));
        Api api = api();
        assertEquals(1, api.pool(license.product(), license.key()).json().getInt("inUse"));
        List<ProcessHandle> children = run.descendants().toList();
        run.destroyForcibly(); // SIGKILL: no shutdown hook, no release
        run.waitFor(10, TimeUnit.SECONDS);
        children.forEach(ProcessHandle::destroyForcibly);
        assertEquals(1, api.pool(license.product(), license.key()).json().getInt("inUse"), "nobody gave it back");
        api.advanceClock(Duration.ofSeconds(5));
        assertEquals(0, api.pool(license.product(), license.key()).json().getInt("inUse"), "free after TTL + skew");
        assertEquals(201, api.acquire(license.product(), license.key(), "next").status());
        api.advanceClock(Duration.ofSeconds(-5));
    }

    @Test
    void waitGetsASeatWhenTheHolderReleases() throws Exception {
        License license = license(1, 30, 2);
        Api api = api();
        String holder = api.acquire(license.product(), license.key(), "holder").json().getString("leaseId");
        Path marker = home.resolve("got-it");
        Process run = cli(license, "run", "--wait", "2m", "--", "sh", "-c", "touch " + marker);
        assertTrue(waitFor(Duration.ofSeconds(30), () -> stderr(run).contains("1st in line, waiting")), stderr(run));
        assertTrue(!Files.exists(marker));
        assertEquals(204, api.release(license.key(), holder).status());
        assertTrue(run.waitFor(90, TimeUnit.SECONDS), "the waiting run got the seat");
        assertEquals(0, run.exitValue(), stderr(run));
        assertTrue(Files.exists(marker));
    }

    @Test
    void aWaitingSdkGetsTheSeatWithinASecondOfAReleaseAndWithinASecondOfAnExpiry() throws Exception {
        License license = license(1, 30, 2);
        Api api = api();
        String holder = api.acquire(license.product(), license.key(), "holder").json().getString("leaseId");
        List<Integer> places = new java.util.concurrent.CopyOnWriteArrayList<>();
        CompletableFuture<Lease> first = CompletableFuture.supplyAsync(() -> client(license, "sdk-first")
                .acquireSeatWaiting(Duration.ofMinutes(3), (full, waited) -> places.add(full.queuePosition().orElse(-1))));
        assertTrue(waitFor(Duration.ofSeconds(20), () -> api.pool(license.product(), license.key()).json().getInt("queued") == 1));

        long released = System.nanoTime();
        assertEquals(204, api.release(license.key(), holder).status());
        Lease got = first.get(10, TimeUnit.SECONDS);
        long afterRelease = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released);
        assertTrue(afterRelease < 1_000, "a 3-minute budget gets the seat within 1 s of the release: " + afterRelease + " ms");

        // The first waiter now crashes with its seat (no renewals); a second waits, and the seat expires.
        CompletableFuture<Lease> second = CompletableFuture.supplyAsync(() -> client(license, "sdk-second")
                .acquireSeatWaiting(Duration.ofMinutes(3), (full, waited) -> { }));
        assertTrue(waitFor(Duration.ofSeconds(20), () -> api.pool(license.product(), license.key()).json().getInt("queued") == 1));
        long moved = System.nanoTime();
        api.advanceClock(Duration.between(java.time.Instant.now(), got.expiresAt()).plusSeconds(3)); // past expiresAt + skew
        Lease next = second.get(10, TimeUnit.SECONDS);
        long afterExpiry = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - moved);
        assertTrue(afterExpiry < 1_000, "and within 1 s of the expiry that freed it: " + afterExpiry + " ms");
        assertNotEquals(got.leaseId(), next.leaseId());
        System.out.printf("[ClientIT] SDK waiting: seat %d ms after the release, %d ms after the expiry%n", afterRelease, afterExpiry);
    }

    @Test
    void aCliBudgetShorterThanRetryAfterWaitsItsWholeBudgetThenGivesUpItsPlace() throws Exception {
        License license = license(1, 60, 2); // Retry-After 20 s (the renew interval)
        Api api = api();
        api.acquire(license.product(), license.key(), "holder");
        assertEquals("20", api.acquire(license.product(), license.key(), "probe").header("Retry-After"));
        long started = System.nanoTime();
        Process run = cli(license, "run", "--wait", "4s", "--", "true");
        assertTrue(run.waitFor(60, TimeUnit.SECONDS));
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertEquals(69, run.exitValue(), stderr(run));
        assertTrue(tookMillis >= 4_000, "waited the whole 4 s budget, not less: " + tookMillis + " ms");
        assertTrue(tookMillis < 15_000, "and not the 20 s Retry-After: " + tookMillis + " ms");
        assertTrue(stderr(run).contains("1st in line, waiting"), stderr(run));
        assertTrue(stderr(run).contains("no seat freed up within 4s"), stderr(run));
        assertEquals(0, api.pool(license.product(), license.key()).json().getInt("queued"), "it gave up its place on leaving");
    }

    @Test
    void aWaitingCliKilledWithSigkillLeavesTheQueueAfterTheKeepAndBlocksNobody() throws Exception {
        License license = license(1, 60, 2);
        Api api = api();
        String holder = api.acquire(license.product(), license.key(), "holder").json().getString("leaseId");
        Process run = cli(license, "run", "--wait", "10m", "--queue-hold", "2s", "--", "true");
        assertTrue(waitFor(Duration.ofSeconds(30), () -> stderr(run).contains("1st in line, waiting")), stderr(run));
        assertEquals(1, api.pool(license.product(), license.key()).json().getInt("queued"));
        run.destroyForcibly(); // SIGKILL: no DELETE of its place
        assertTrue(run.waitFor(10, TimeUnit.SECONDS));
        assertTrue(waitFor(Duration.ofSeconds(10), () -> api.heldRequests() == 0), "its last 2 s hold ended on the server");
        assertEquals(1, api.pool(license.product(), license.key()).json().getInt("queued"), "the place is kept for the keep");
        assertEquals(204, api.release(license.key(), holder).status());
        assertEquals(409, api.acquire(license.product(), license.key(), "next").status(), "within the keep the seat is its");
        api.advanceClock(Duration.ofSeconds(11));
        assertEquals(0, api.pool(license.product(), license.key()).json().getInt("queued"), "gone after the 10 s keep");
        assertEquals(201, api.acquire(license.product(), license.key(), "next").status(), "and it blocks nobody");
    }

    @Test
    void theAdminCommandsShowThePoolRevokeWithABlockAndReportUsage() throws Exception {
        Api api = api();
        License license = license(2, 120, 5);
        String leaseId = api.acquireAs(license.product(), license.key(), "adm-a", "alice", "ws-7").json().getString("leaseId");

        Process status = admin("admin", "status");
        assertEquals(0, status.waitFor(60, TimeUnit.SECONDS) ? status.exitValue() : -1, stderr(status));
        String shown = Files.readString(home.resolve("cli.out"), StandardCharsets.UTF_8);
        assertTrue(shown.contains(license.product() + " (" + license.id() + "): 1 of 2 seats in use"), shown);
        assertTrue(shown.contains("alice@ws-7  since ") && shown.contains(leaseId + "  install adm-a"), shown);

        Process revoke = admin("admin", "revoke", license.id(), leaseId, "--block", "60s");
        assertEquals(0, revoke.waitFor(60, TimeUnit.SECONDS) ? revoke.exitValue() : -1, stderr(revoke));
        assertEquals(410, api.renew(license.key(), leaseId).status(), "revoked");
        Api.Reply blocked = api.acquire(license.product(), license.key(), "adm-a");
        assertEquals(403, blocked.status(), "and the install is refused for the block: " + blocked);

        Process usage = admin("admin", "usage", license.id(), "--json");
        assertEquals(0, usage.waitFor(60, TimeUnit.SECONDS) ? usage.exitValue() : -1, stderr(usage));
        JsonObject report = jakarta.json.Json.createReader(new java.io.StringReader(
                Files.readString(home.resolve("cli.out"), StandardCharsets.UTF_8))).readObject();
        assertEquals(1, report.getJsonArray("buckets").getValuesAs(JsonObject.class).stream()
                .mapToInt(bucket -> bucket.getInt("revocations")).sum(), report.toString());

        Process wrong = adminAs("wrong-password", "admin", "licenses");
        assertEquals(77, wrong.waitFor(60, TimeUnit.SECONDS) ? wrong.exitValue() : -1, stderr(wrong));
    }

    @Test
    void aBorrowedSeatKeepsTheAppLicensedWithTheServerOutOfReachUntilBorrowedUntilAndNotOneSecondAfter() throws Exception {
        License license = lendingLicense(1, 8);
        Path store = home.resolve("borrowing");
        SettableClock clock = new SettableClock(java.time.Instant.now());
        KeyrightClient online = KeyrightClient.builder().server(server()).product(license.product()).licenseKey(license.key())
                .clientInstanceId("laptop-1").issuer("keyright-seats").offlineStore(store).clock(clock).build();
        BorrowedSeat seat = online.borrow(Duration.ofHours(8));
        assertTrue(Duration.between(clock.instant(), seat.borrowedUntil()).compareTo(Duration.ofHours(8)) >= 0, seat.toString());
        assertEquals(1, api().pool(license.product(), license.key()).json().getInt("inUse"), "the server counts it");

        // The network is off: the same machine, the same store, and no server anywhere it could reach.
        KeyrightClient offline = KeyrightClient.builder().server("http://127.0.0.1:" + closedPort()).product(license.product())
                .licenseKey(license.key()).issuer("keyright-seats").offlineStore(store).clock(clock).build();
        clock.set(seat.borrowedUntil().minus(Duration.ofHours(4)));
        assertEquals(seat.leaseId(), offline.checkBorrowedSeat().leaseId(), "licensed offline, half-way");
        clock.set(seat.borrowedUntil());
        assertEquals(seat.borrowedUntil(), offline.checkBorrowedSeat().borrowedUntil(), "licensed at borrowedUntil");
        clock.set(seat.borrowedUntil().plusSeconds(1));
        assertThrows(OfflineLicenseExpiredException.class, offline::checkBorrowedSeat, "not one second after");
        clock.set(seat.borrowedUntil().minus(Duration.ofHours(1)));
        assertThrows(ClockRolledBackException.class, offline::checkBorrowedSeat,
                "a clock set back below the last time seen is refused (it would buy back the hour)");

        clock.set(java.time.Instant.now());
        assertTrue(online.returnBorrowed(), "back online: the seat is returned");
        assertEquals(0, api().pool(license.product(), license.key()).json().getInt("inUse"), "free at once");
        assertThrows(OfflineLicenseNotFoundException.class, offline::checkBorrowedSeat, "and nothing is kept offline");

        License off = license(1, 30, 2);
        KeyrightClient notLending = KeyrightClient.builder().server(server()).product(off.product()).licenseKey(off.key())
                .clientInstanceId("laptop-2").offlineStore(home.resolve("not-lending")).build();
        assertThrows(BorrowingNotAllowedException.class, () -> notLending.borrow(Duration.ofHours(1)));
        assertEquals(0, api().pool(off.product(), off.key()).json().getInt("inUse"), "the seat it took for the borrow went back");
    }

    @Test
    void aNodeLockedActivationIsCheckedOfflineByTheSdkAndItsSlotIsFreedAtOnceByDeactivation() throws Exception {
        String product = uniqueProduct("sdk-nl");
        JsonObject created = dev.keyright.seats.activations.ActivationsIT.nodeLockedLicense(api(), product, 1, 10);
        String key = created.getString("licenseKey");
        SettableClock clock = new SettableClock(java.time.Instant.now());
        Path thisMachine = home.resolve("machine-1");
        KeyrightClient machine = KeyrightClient.builder().server(server()).product(product).licenseKey(key)
                .offlineStore(thisMachine).clock(clock).build();
        Activation activation = machine.activate();
        assertEquals(MachineFingerprint.of(product), activation.fingerprint(), "the documented default fingerprint");

        KeyrightClient offline = KeyrightClient.builder().server("http://127.0.0.1:" + closedPort()).product(product)
                .licenseKey(key).offlineStore(thisMachine).clock(clock).build();
        clock.set(activation.expiresAt());
        assertEquals(activation.activationId(), offline.checkActivation().activationId(), "runs offline for offlineDays");
        clock.set(activation.expiresAt().plusSeconds(1));
        assertThrows(OfflineLicenseExpiredException.class, offline::checkActivation);
        clock.set(java.time.Instant.now());

        Path otherMachine = home.resolve("machine-2");
        KeyrightClient other = KeyrightClient.builder().server(server()).product(product).licenseKey(key)
                .machineFingerprint("other-machine-0123456789abcdef").offlineStore(otherMachine).clock(clock).build();
        assertThrows(ActivationsExhaustedException.class, other::activate, "one slot, taken");
        Path copied = KeyrightClient.builder().product(product).offlineStore(otherMachine).buildOfflineLicense().storeFile();
        Files.createDirectories(copied.getParent());
        Files.copy(KeyrightClient.builder().product(product).offlineStore(thisMachine).buildOfflineLicense().storeFile(), copied);
        assertThrows(WrongMachineException.class, other::checkActivation, "a certificate copied to another machine is refused");

        assertTrue(machine.deactivate());
        assertEquals(201, api().activate(product, key, ActivationsIT.fingerprint()).status(), "the slot is free at once");
    }

    @Test
    void theCliBorrowsShowsAndReturnsASeat() throws Exception {
        License license = lendingLicense(1, 8);
        Process borrow = cli(license, "borrow", "8h");
        assertEquals(0, borrow.waitFor(60, TimeUnit.SECONDS) ? borrow.exitValue() : -1, stderr(borrow));
        assertTrue(Files.readString(home.resolve("cli.out")).startsWith("Borrowed a seat of " + license.product() + " until "),
                Files.readString(home.resolve("cli.out")));
        assertEquals(1, api().pool(license.product(), license.key()).json().getInt("inUse"));
        Process status = cli(license, "status", "--json");
        assertEquals(0, status.waitFor(60, TimeUnit.SECONDS) ? status.exitValue() : -1, stderr(status));
        JsonObject shown = jakarta.json.Json.createReader(new java.io.StringReader(Files.readString(home.resolve("cli.out")))).readObject();
        assertTrue(shown.getJsonObject("borrowed").getBoolean("valid"), shown.toString());
        Process giveBack = cli(license, "return");
        assertEquals(0, giveBack.waitFor(60, TimeUnit.SECONDS) ? giveBack.exitValue() : -1, stderr(giveBack));
        assertEquals(0, api().pool(license.product(), license.key()).json().getInt("inUse"), "returned: free at once");
        Process nothing = cli(license, "status");
        assertEquals(3, nothing.waitFor(60, TimeUnit.SECONDS) ? nothing.exitValue() : -1, "nothing held: " + stderr(nothing));
    }

    private License lendingLicense(int seats, int maxBorrowHours) {
        String product = uniqueProduct("cli-bor");
        JsonObject created = api().createLicense(jakarta.json.Json.createObjectBuilder().add("product", product).add("seats", seats)
                .add("ttlSeconds", 30).add("skewSeconds", 2).add("maxBorrowHours", maxBorrowHours).build());
        return new License(created.getString("licenseId"), product, created.getString("licenseKey"));
    }

    /** A port on the loopback address that nothing listens on (bound and closed again): the network is off. */
    private static int closedPort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** The SDK's wall clock, set by the test: expiry and rollback without waiting. */
    private static final class SettableClock extends java.time.Clock {
        private final java.util.concurrent.atomic.AtomicReference<java.time.Instant> now;

        SettableClock(java.time.Instant start) {
            this.now = new java.util.concurrent.atomic.AtomicReference<>(start);
        }

        void set(java.time.Instant instant) {
            now.set(instant);
        }

        @Override
        public java.time.ZoneId getZone() {
            return java.time.ZoneOffset.UTC;
        }

        @Override
        public java.time.Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public java.time.Instant instant() {
            return now.get();
        }
    }

    /** The CLI's admin commands, as an operator runs them: the server and the admin credentials from the environment. */
    private Process admin(String... args) throws IOException {
        return adminAs(Api.ADMIN_PASSWORD, args);
    }

    private Process adminAs(String password, String... args) throws IOException {
        return launch(Map.of("KEYRIGHT_ADMIN_USER", Api.ADMIN_USER, "KEYRIGHT_ADMIN_PASSWORD", password), args);
    }

    private final Map<Process, Path> errors = new java.util.concurrent.ConcurrentHashMap<>();

    private Process cli(License license, String... args) throws IOException {
        return launch(Map.of("KEYRIGHT_PRODUCT", license.product(), "KEYRIGHT_LICENSE_KEY", license.key(),
                "HOME", home.toString(), "XDG_CONFIG_HOME", home.resolve("config").toString()), args);
    }

    /** The CLI jar with these settings (and the server's URL); standard output to cli.out, errors kept per process. */
    private Process launch(Map<String, String> settings, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"), "-jar",
                CliJar.path().getPath()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("KEYRIGHT_SERVER", server());
        builder.environment().putAll(settings);
        Path err = Files.createTempFile(home, "cli", ".err");
        builder.redirectError(err.toFile()).redirectOutput(home.resolve("cli.out").toFile());
        Process process = builder.start();
        errors.put(process, err);
        return process;
    }

    private String stderr(Process process) {
        try {
            return Files.readString(errors.get(process), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** Waits for a condition, polling, up to a bounded deadline; says whether it came true. */
    private static boolean waitFor(Duration limit, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(100);
        }
        return true;
    }
}
