package dev.keyright.seats.secrets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.keyright.seats.configuration.ConfigurationException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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
}
