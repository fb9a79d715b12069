package dev.keyright.seats.secrets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.configuration.ConfigurationException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class ServerSecretTest {

    private static final byte[] DATA = "ACME-7F3K".getBytes(StandardCharsets.UTF_8);

    @Test
    void eachPurposeHasItsOwnKeyAndRepeatedCallsAgree() {
        ServerSecret secret = new ServerSecret("s".repeat(32).getBytes(StandardCharsets.UTF_8));
        byte[] first = secret.mac("license-key", DATA);
        assertArrayEquals(first, secret.mac("license-key", DATA), "the derived key is remembered, not changed");
        assertArrayEquals(first, new ServerSecret("s".repeat(32).getBytes(StandardCharsets.UTF_8)).mac("license-key", DATA),
                "every node with the same secret derives the same key");
        assertFalse(Arrays.equals(first, secret.mac("admin", DATA)), "another purpose, another key");
        assertFalse(Arrays.equals(first, new ServerSecret("t".repeat(32).getBytes(StandardCharsets.UTF_8)).mac("license-key", DATA)));
    }

    @Test
    void wrappingStillWorksAfterTheMacKeysAreDerived() {
        ServerSecret secret = new ServerSecret("s".repeat(32).getBytes(StandardCharsets.UTF_8));
        secret.mac("wrap", DATA); // same purpose name, other algorithm: must not hand the HMAC key to AES
        byte[] plain = "signing key".getBytes(StandardCharsets.UTF_8);
        assertArrayEquals(plain, secret.unwrap(secret.wrap(plain)));
        ServerSecret other = new ServerSecret("t".repeat(32).getBytes(StandardCharsets.UTF_8));
        assertThrows(ConfigurationException.class, () -> other.unwrap(secret.wrap(plain)));
    }

    @Test
    void theMacIsHmacSha256UnderTheDerivedKeyForEveryCallerAtOnce() throws Exception {
        byte[] raw = "s".repeat(32).getBytes(StandardCharsets.UTF_8);
        byte[] derived = hmac(raw, "keyright/license-key".getBytes(StandardCharsets.UTF_8));
        ServerSecret secret = new ServerSecret(raw);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Callable<Boolean>> calls = IntStream.range(0, 2_000)
                    .mapToObj(i -> (Callable<Boolean>) () -> {
                        byte[] data = ("key-" + i).getBytes(StandardCharsets.UTF_8);
                        return Arrays.equals(hmac(derived, data), secret.mac("license-key", data));
                    }).toList();
            for (Future<Boolean> agreed : pool.invokeAll(calls)) {
                assertTrue(agreed.get(), "each call is a fresh HMAC: the keyed one is copied, never used itself");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static byte[] hmac(byte[] key, byte[] data) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        return mac.doFinal(data);
    }
}
