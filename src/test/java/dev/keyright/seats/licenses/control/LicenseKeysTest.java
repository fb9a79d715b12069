package dev.keyright.seats.licenses.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.configuration.KeyrightConfig;
import dev.keyright.seats.secrets.ServerSecret;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LicenseKeysTest {

    private static LicenseKeys keys(String secret) {
        return new LicenseKeys(ServerSecret.load(KeyrightConfig.read(Map.of("KEYRIGHT_KEY_SECRET", secret)::get)));
    }

    @Test
    void keysAreGroupedReadableAndCarryAtLeast128RandomBits() {
        String key = LicenseKeys.generate("acme-studio");
        assertTrue(key.matches("ACME(-[0-9A-HJKMNP-TV-Z]{4}){7}"), key);
        // 7 groups x 4 characters x 5 bits = 140 bits
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            assertTrue(seen.add(LicenseKeys.generate("acme")));
        }
    }

    @Test
    void theStoredHashIsKeyedByTheServerSecret() {
        LicenseKeys one = keys("a".repeat(32));
        LicenseKeys other = keys("b".repeat(32));
        String key = LicenseKeys.generate("acme");
        assertEquals(one.hash(key), one.hash(key));
        assertNotEquals(one.hash(key), other.hash(key), "a database dump without the secret yields nothing usable");
        assertEquals(64, one.hash(key).length());
        assertFalse(one.hash(key).contains(key));
    }

    @Test
    void matchingIgnoresCaseAndSurroundingSpaceButNothingElse() {
        LicenseKeys keys = keys("c".repeat(32));
        String key = LicenseKeys.generate("acme");
        String stored = keys.hash(key);
        assertTrue(keys.matches(key, stored));
        assertTrue(keys.matches(" " + key.toLowerCase() + " ", stored));
        assertFalse(keys.matches(key.substring(0, key.length() - 1) + "0".repeat(1).replace("0", key.endsWith("0") ? "1" : "0"), stored));
    }
}
