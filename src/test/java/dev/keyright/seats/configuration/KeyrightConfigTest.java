package dev.keyright.seats.configuration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KeyrightConfigTest {

    private static KeyrightConfig read(Map<String, String> env) {
        return KeyrightConfig.read(env::get);
    }

    @Test
    void defaultsMatchTheContract() {
        KeyrightConfig config = read(Map.of());
        assertEquals(120, config.defaultTtlSeconds());
        assertEquals(5, config.defaultSkewSeconds());
        assertEquals(Duration.ofSeconds(15), config.reapGrace());
        assertEquals(Duration.ofSeconds(30), config.reapInterval());
        assertEquals("admin", config.adminUser());
        assertTrue(config.adminPassword().isEmpty());
        assertTrue(config.dataDir().endsWith("keyright-data"));
        assertFalse(config.externalDatabaseRequested());
        assertEquals(14, dev.keyright.seats.licenses.entity.Policy.maxSkewSeconds(config.reapGrace()));
    }

    @Test
    void aGraceThatDoesNotExceedTheSkewIsRefused() {
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> read(Map.of("KEYRIGHT_REAP_GRACE_SECONDS", "5", "KEYRIGHT_DEFAULT_SKEW_SECONDS", "5")));
        assertTrue(e.getMessage().contains("KEYRIGHT_REAP_GRACE_SECONDS"), e.getMessage());
        assertEquals(Duration.ofSeconds(6), read(Map.of("KEYRIGHT_REAP_GRACE_SECONDS", "6",
                "KEYRIGHT_DEFAULT_SKEW_SECONDS", "5")).reapGrace());
    }

    @Test
    void everyBadValueIsNamedInOneMessage() {
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> read(Map.of(
                "KEYRIGHT_DEFAULT_TTL_SECONDS", "soon", "KEYRIGHT_REAP_INTERVAL_SECONDS", "0",
                "KEYRIGHT_ADMIN_PASSWORD", "short")));
        assertTrue(e.getMessage().contains("KEYRIGHT_DEFAULT_TTL_SECONDS must be a whole number, was 'soon'"), e.getMessage());
        assertTrue(e.getMessage().contains("KEYRIGHT_REAP_INTERVAL_SECONDS must be between 1"), e.getMessage());
        assertTrue(e.getMessage().contains("KEYRIGHT_ADMIN_PASSWORD must be at least 8"), e.getMessage());
        assertFalse(e.getMessage().contains("short"), "a password is never echoed");
    }

    @Test
    void aDatabaseUrlMeansTheOperatorAskedForAnExternalDatabase() {
        assertTrue(read(Map.of("KEYRIGHT_DB_URL", "jdbc:mariadb://db/keyright")).externalDatabaseRequested());
        assertFalse(read(Map.of("KEYRIGHT_DB_URL", "  ")).externalDatabaseRequested());
    }

    @Test
    void trustedNetworksAndIdempotencyBoundsAreReadAndChecked() {
        KeyrightConfig config = read(Map.of("KEYRIGHT_AUTH_TRUSTED_NETWORKS", "10.0.0.0/8"));
        assertTrue(config.authTrustedNetworks().contains("10.1.2.3"));
        assertEquals(8, config.idempotencyRecordsPerInstall());
        assertEquals(1_000, config.idempotencyRecordsPerLicense());
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> read(Map.of(
                "KEYRIGHT_AUTH_TRUSTED_NETWORKS", "10.0.0.0/8,office", "KEYRIGHT_IDEMPOTENCY_RECORDS_PER_LICENSE", "0")));
        assertTrue(e.getMessage().contains("KEYRIGHT_AUTH_TRUSTED_NETWORKS: 'office' is not an address"), e.getMessage());
        assertTrue(e.getMessage().contains("KEYRIGHT_IDEMPOTENCY_RECORDS_PER_LICENSE must be between 1"), e.getMessage());
    }
}
