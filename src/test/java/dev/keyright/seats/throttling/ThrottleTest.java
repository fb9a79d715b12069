package dev.keyright.seats.throttling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.configuration.KeyrightConfig;
import dev.keyright.seats.throttling.control.Throttle;
import java.time.Instant;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class ThrottleTest {

    private static final Instant T0 = Instant.parse("2026-12-03T12:00:00Z");
    private static final String OFFICE = "198.51.100.7";

    private static Throttle throttle(Map<String, String> settings) {
        Map<String, String> all = new java.util.HashMap<>(Map.of("KEYRIGHT_AUTH_SLOWDOWN_AFTER", "0", "KEYRIGHT_AUTH_FAILURE_LIMIT", "3",
                "KEYRIGHT_AUTH_TRUSTED_SLOWDOWN_AFTER", "0", "KEYRIGHT_AUTH_TRUSTED_FAILURE_LIMIT", "6"));
        all.putAll(settings);
        return Throttle.configured(KeyrightConfig.read(all::get));
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
}
