package dev.keyright.seats.throttling.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.configuration.KeyrightConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class ThrottleTest {

    private static final Instant T0 = Instant.parse("2026-12-03T12:00:00Z");
    private static final String OFFICE = "198.51.100.7";

    /** The delays the throttle asked for, in order: its pause records them instead of parking the thread. */
    private final List<Duration> pauses = new ArrayList<>();

    private static KeyrightConfig config(Map<String, String> settings) {
        Map<String, String> all = new java.util.HashMap<>(Map.of("KEYRIGHT_AUTH_SLOWDOWN_AFTER", "0", "KEYRIGHT_AUTH_FAILURE_LIMIT", "3",
                "KEYRIGHT_AUTH_TRUSTED_SLOWDOWN_AFTER", "0", "KEYRIGHT_AUTH_TRUSTED_FAILURE_LIMIT", "6"));
        all.putAll(settings);
        return KeyrightConfig.read(all::get);
    }

    private Throttle throttle(Map<String, String> settings) {
        return Throttle.configured(config(settings), pauses::add);
    }

    private static void fail(Throttle throttle, String address, String bucket, int times) {
        for (int i = 0; i < times; i++) {
            throttle.failed(address, bucket, T0);
        }
    }

    @Test
    void oneProductsMisconfiguredInstallDoesNotLockOutAnotherProductBehindTheSameAddress() {
        Throttle throttle = throttle(Map.of());
        fail(throttle, OFFICE, "acme-cad", 3);
        assertTrue(throttle.admit(OFFICE, "acme-cad", T0).isPresent(), "the product guessed at is refused");
        assertEquals(OptionalInt.empty(), throttle.admit(OFFICE, "acme-render", T0), "another product from that office is not");
        assertEquals(OptionalInt.empty(), throttle.admit("203.0.113.1", "acme-cad", T0), "nor the same product elsewhere");
    }

    @Test
    void inventingBucketsBuysAGuesserNothingPastTheAddressLimit() {
        Throttle throttle = throttle(Map.of());
        for (int product = 0; product < 5; product++) {
            fail(throttle, OFFICE, "product-" + product, 3);
        }
        OptionalInt refused = throttle.admit(OFFICE, "a-product-never-guessed-at", T0);
        assertTrue(refused.isPresent(), "five times the per-product limit over all buckets refuses the address");
        assertEquals(301, refused.getAsInt(), "until the oldest counted failure leaves the 300 s window");
        assertEquals(OptionalInt.empty(), throttle.admit(OFFICE, "anything", T0.plusSeconds(301)), "until the window has passed");
    }

    @Test
    void trustedNetworksHaveTheirOwnLimits() {
        Throttle throttle = throttle(Map.of("KEYRIGHT_AUTH_TRUSTED_NETWORKS", "10.20.0.0/16, 2001:db8::/32"));
        fail(throttle, "10.20.3.4", "acme-cad", 5);
        assertEquals(OptionalInt.empty(), throttle.admit("10.20.3.4", "acme-cad", T0), "5 failures are within the trusted limit of 6");
        throttle.failed("10.20.3.4", "acme-cad", T0);
        assertTrue(throttle.admit("10.20.3.4", "acme-cad", T0).isPresent(), "the 6th reaches it");
        fail(throttle, "10.21.0.1", "acme-cad", 3);
        assertTrue(throttle.admit("10.21.0.1", "acme-cad", T0).isPresent(), "outside the network the normal limit applies");
        fail(throttle, "2001:db8:1::9", "acme-cad", 5);
        assertEquals(OptionalInt.empty(), throttle.admit("2001:db8:1::9", "acme-cad", T0));
    }

    @Test
    void pastSlowAfterEachAttemptWaitsTwiceAsLongAsTheLastUpToOneSecond() {
        Throttle throttle = throttle(Map.of("KEYRIGHT_AUTH_SLOWDOWN_AFTER", "2", "KEYRIGHT_AUTH_FAILURE_LIMIT", "9"));
        for (int failures = 0; failures < 9; failures++) {
            assertEquals(OptionalInt.empty(), throttle.admit(OFFICE, "acme-cad", T0), "after " + failures + " failures");
            throttle.failed(OFFICE, "acme-cad", T0);
        }
        assertEquals(List.of(millis(100), millis(200), millis(400), millis(800), millis(1_000), millis(1_000)), pauses,
                "none for the first 2 failures, then 100 ms doubling, at most 1 s");

        assertTrue(throttle.admit(OFFICE, "acme-cad", T0).isPresent(), "the 9th failure reaches the limit");
        assertEquals(6, pauses.size(), "a refused attempt is answered at once, not slowed first");
    }

    @Test
    void theAddressWideLimitRefusesButNeverSlows() {
        Throttle throttle = throttle(Map.of("KEYRIGHT_AUTH_SLOWDOWN_AFTER", "2", "KEYRIGHT_AUTH_FAILURE_LIMIT", "9"));
        for (int product = 0; product < 20; product++) {
            fail(throttle, OFFICE, "product-" + product, 2);
        }
        assertEquals(OptionalInt.empty(), throttle.admit(OFFICE, "product-0", T0), "40 failures are below 5 x 9");
        assertEquals(List.of(), pauses, "no product is past its slow-down, and the address as a whole is never slowed");
    }

    @Test
    void trustedNetworksAreSlowedAfterTheirOwnThreshold() {
        Throttle throttle = throttle(Map.of("KEYRIGHT_AUTH_TRUSTED_NETWORKS", "10.20.0.0/16",
                "KEYRIGHT_AUTH_SLOWDOWN_AFTER", "1", "KEYRIGHT_AUTH_TRUSTED_SLOWDOWN_AFTER", "3"));
        fail(throttle, "10.20.3.4", "acme-cad", 3);
        throttle.admit("10.20.3.4", "acme-cad", T0);
        assertEquals(List.of(), pauses, "3 failures are within the trusted slow-down threshold");
        throttle.failed("10.20.3.4", "acme-cad", T0);
        throttle.admit("10.20.3.4", "acme-cad", T0);
        assertEquals(List.of(millis(100)), pauses);
    }

    @Test
    void theServersThrottleParksTheSlowedCallersThread() {
        Throttle throttle = Throttle.configured(config(Map.of()));
        throttle.failed(OFFICE, "acme-cad", T0);
        long start = System.nanoTime();
        assertEquals(OptionalInt.empty(), throttle.admit(OFFICE, "acme-cad", T0));
        long waited = System.nanoTime() - start;
        assertTrue(waited >= Duration.ofMillis(100).toNanos(), "one failure past slowAfter 0 costs 100 ms; waited " + waited + " ns");
    }

    private static Duration millis(long millis) {
        return Duration.ofMillis(millis);
    }

    @Test
    void theAddressIsTheNearestUntrustedHopBehindTrustedProxies() {
        Throttle throttle = throttle(Map.of("KEYRIGHT_TRUSTED_PROXIES", "10.0.0.1"));
        assertEquals(OFFICE, throttle.addressOf("10.0.0.1", "203.0.113.1, " + OFFICE));
        assertEquals("203.0.113.5", throttle.addressOf("203.0.113.5", OFFICE), "a header from an untrusted peer is ignored");
    }
}
