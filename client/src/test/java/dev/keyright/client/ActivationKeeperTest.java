package dev.keyright.client;

import static dev.keyright.client.FakeOfflineServer.START;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.DoubleSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The activation keeper on fake time: refreshes at revalidateAfter, rides out failures, stops when the activation ends. */
class ActivationKeeperTest {

    @TempDir
    Path home;

    private final ManualTime time = new ManualTime();
    private final WallClock clock = new WallClock(START, time);
    private final FakeOfflineServer server = new FakeOfflineServer();
    private final List<String> told = Collections.synchronizedList(new ArrayList<>());
    private final List<KeyrightException> causes = Collections.synchronizedList(new ArrayList<>());

    {
        server.model = "node-locked";
        server.following = clock;
    }

    private KeyrightClient client(DoubleSupplier random) {
        return KeyrightClient.builder().server("http://127.0.0.1:1").product(FakeOfflineServer.PRODUCT)
                .licenseKey(FakeOfflineServer.LICENSE_KEY).clientInstanceId("inst-test").issuer(FakeOfflineServer.ISSUER)
                .transport(server).offlineStore(home).clock(clock).machineFingerprint(ActivationTest.THIS_MACHINE)
                .ticker(time).sleeper(time).scheduler(time).random(random).build();
    }

    private ActivationKeeper keep(KeyrightClient client) {
        return client.keepActivated(client.activate(), new ActivationListener() {
            @Override
            public void activationEnded(KeyrightException cause) {
                told.add("ended");
                causes.add(cause);
            }

            @Override
            public void refreshed(Activation activation) {
                told.add("refreshed " + activation.expiresAt());
            }

            @Override
            public void refreshFailed(KeyrightException cause) {
                told.add("failed");
                causes.add(cause);
            }
        });
    }

    /** Moves the server's clock, the machine's and the scheduler's on together, running what falls due on the way. */
    private void advance(Duration duration) {
        time.advance(duration);
    }

    private long refreshes() {
        synchronized (server.calls) {
            return server.calls.stream().filter(c -> c.startsWith("refresh")).count();
        }
    }

    @Test
    void refreshesAtRevalidateAfterAndThenAtEachNewOne() {
        KeyrightClient client = client(() -> 0.0);
        ActivationKeeper keeper = keep(client);

        advance(Duration.ofHours(24).minusSeconds(1));
        assertEquals(0, refreshes());
        advance(Duration.ofSeconds(1));
        assertEquals(1, refreshes());
        assertEquals(List.of("refreshed " + START.plus(Duration.ofDays(31))), told);
        assertEquals(START.plus(Duration.ofDays(31)), keeper.activation().expiresAt());
        assertEquals(keeper.activation(), client.checkActivation(), "the new certificate is stored");

        advance(Duration.ofHours(24));
        assertEquals(2, refreshes());
        keeper.close();
    }

    @Test
    void theRefreshIsSpreadOverATenthOfTheWaitAfterRevalidateAfter() {
        keep(client(() -> 0.99));

        advance(Duration.ofHours(26));
        assertEquals(0, refreshes(), "24 h plus 9.9 % of it is 26 h 22 m");
        advance(Duration.ofMinutes(23));
        assertEquals(1, refreshes());
    }

    @Test
    void aTransientFailureIsRetriedLaterAndTheCertificateStaysUsable() {
        KeyrightClient client = client(() -> 0.5);
        ActivationKeeper keeper = keep(client);
        Activation first = keeper.activation();
        server.down = true;

        advance(Duration.ofHours(27));
        assertTrue(told.size() >= 2 && told.stream().allMatch("failed"::equals), told.toString());
        assertInstanceOf(TransientException.class, causes.get(0));
        assertEquals(first, client.checkActivation(), "still valid offline until its exp");
        List<Duration> retries = time.scheduledDelays.subList(1, 5);
        assertEquals(List.of(Duration.ofMinutes(1), Duration.ofMinutes(2), Duration.ofMinutes(4), Duration.ofMinutes(8)),
                retries, "doubling from a minute");

        server.down = false;
        advance(Duration.ofHours(1));
        Instant firstTry = START.plus(Duration.ofHours(25).plusMinutes(12)); // 24 h and 5 % of it (random 0.5)
        Instant recovered = firstTry.plus(Duration.ofMinutes(1 + 2 + 4 + 8 + 16 + 32 + 60));
        assertEquals("refreshed " + recovered.plus(Duration.ofDays(30)), told.get(told.size() - 1),
                "at the first retry once the network is back, the pause capped at an hour");
        assertEquals(keeper.activation(), client.checkActivation());
        assertFalse(keeper.stopped());
    }

    @Test
    void aRevokedActivationLosesItsCertificateAndTheListenerIsTold() {
        KeyrightClient client = client(() -> 0.0);
        ActivationKeeper keeper = keep(client);
        server.revokeActivation(keeper.activation().activationId());

        advance(Duration.ofHours(24));

        assertEquals(List.of("ended"), told);
        assertInstanceOf(ActivationEndedException.class, causes.get(0));
        assertTrue(keeper.stopped());
        assertFalse(Files.exists(home.resolve("offline.json")));
        assertThrows(OfflineLicenseNotFoundException.class, client::checkActivation);
        assertEquals(0, time.pendingTasks(), "nothing more is scheduled");
    }

    @Test
    void aDeactivationByAnotherProcessEndsTheKeeperToo() {
        KeyrightClient client = client(() -> 0.0);
        ActivationKeeper keeper = keep(client);
        client(() -> 0.0).deactivate();

        advance(Duration.ofHours(24));

        assertEquals(List.of("ended"), told);
        assertInstanceOf(OfflineLicenseNotFoundException.class, causes.get(0));
        assertTrue(keeper.stopped());
    }

    @Test
    void closingStopsRefreshingWithoutDeactivating() {
        KeyrightClient client = client(() -> 0.0);
        ActivationKeeper keeper = keep(client);

        keeper.close();
        advance(Duration.ofDays(3));

        assertEquals(0, refreshes());
        assertEquals(1, server.liveActivations().size());
        assertEquals(keeper.activation(), client.checkActivation());
    }
}
