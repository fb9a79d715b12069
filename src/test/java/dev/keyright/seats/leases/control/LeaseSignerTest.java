package dev.keyright.seats.leases.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.interfaces.ECPrivateKey;
import java.security.Security;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.junit.jupiter.api.Test;

class LeaseSignerTest {

    private static final Instant NOW = Instant.parse("2026-12-04T06:00:00Z");
    private static final LeaseSigner.LeaseClaims CLAIMS = new LeaseSigner.LeaseClaims("cad-pro", "alice@ws-7",
            "lease_0123456789abcdef0123456789abcdef", "lic_1", "install-1", NOW, NOW.plusSeconds(120), false, false);

    @Test
    void bouncyCastleSignsAndTheTokenVerifiesWithTheJdksOwnProvider() throws Exception {
        SignatureProvider provider = SignatureProvider.install();
        try {
            assertEquals(Optional.of("BC"), provider.name(), "BouncyCastle is in the WAR and signs ES256");
            KeyPair keys = p256();
            String token = new LeaseSigner("https://seats.example", "k1", keys.getPrivate(), provider.name()).sign(CLAIMS);

            assertEquals(64, Base64.getUrlDecoder().decode(token.split("\\.")[2]).length, "a standard 64-byte ES256 signature");
            JsonWebSignature jws = new JsonWebSignature();
            jws.setCompactSerialization(token);
            jws.setKey(keys.getPublic()); // verified by the JDK's SunEC, as the SDK and third parties do
            assertTrue(jws.verifySignature());
            JwtClaims claims = JwtClaims.parse(jws.getPayload());
            assertEquals("lease_0123456789abcdef0123456789abcdef", claims.getStringClaimValue("lid"));
            assertEquals(NOW.plusSeconds(120).getEpochSecond(), claims.getExpirationTime().getValue());
            assertEquals("lease+jwt", jws.getHeader("typ"));
            assertEquals("k1", jws.getKeyIdHeaderValue());
        } finally {
            provider.uninstall();
        }
        assertNull(Security.getProvider("BC"), "an application that registered the provider removes it when it stops");
    }

    @Test
    void bouncyCastleSignsWithItsOwnKeyObjectConvertedOnceAndTheTokenStillVerifies() throws Exception {
        SignatureProvider provider = SignatureProvider.install();
        try {
            KeyPair keys = p256();
            PrivateKey own = provider.own(keys.getPrivate());
            assertTrue(own.getClass().getName().startsWith("org.bouncycastle."),
                    "a JDK key would be converted again at every signature: " + own.getClass().getName());
            assertEquals(((ECPrivateKey) keys.getPrivate()).getS(), ((ECPrivateKey) own).getS(), "the same key");
            String token = new LeaseSigner("https://seats.example", "k1", own, provider.name()).sign(CLAIMS);
            JsonWebSignature jws = new JsonWebSignature();
            jws.setCompactSerialization(token);
            jws.setKey(keys.getPublic());
            assertTrue(jws.verifySignature(), "verified by the JDK's SunEC with the original public key");
        } finally {
            provider.uninstall();
        }
    }

    @Test
    void withoutAProviderOfItsOwnTheKeyIsUsedAsItIs() throws Exception {
        KeyPair keys = p256();
        SignatureProvider jdk = SignatureProvider.jdkDefault();
        assertSame(keys.getPrivate(), jdk.own(keys.getPrivate()));
    }

    @Test
    void theSignerUsesTheProviderItIsGiven() throws Exception {
        KeyPair keys = p256();
        LeaseSigner nowhere = new LeaseSigner("https://seats.example", "k1", keys.getPrivate(), Optional.of("NoSuchProvider"));
        assertThrows(IllegalStateException.class, () -> nowhere.sign(CLAIMS));
        assertNotNull(new LeaseSigner("https://seats.example", "k1", keys.getPrivate()).sign(CLAIMS), "the JDK's default signs too");
    }

    @Test
    void aProviderSomeoneElseRegisteredIsUsedAndLeftInPlace() {
        SignatureProvider first = SignatureProvider.install();
        try {
            SignatureProvider second = SignatureProvider.install();
            assertEquals(Optional.of("BC"), second.name());
            second.uninstall();
            assertNotNull(Security.getProvider("BC"), "not ours to remove");
        } finally {
            first.uninstall();
        }
    }

    @Test
    void withoutBouncyCastleInTheApplicationTheJdksProviderSigns() throws Exception {
        java.security.Provider registered = Security.getProvider("BC");
        if (registered != null) {
            Security.removeProvider("BC"); // another test's: this one asks as a fresh JVM would
        }
        java.net.URL classes = SignatureProvider.class.getProtectionDomain().getCodeSource().getLocation();
        try (java.net.URLClassLoader withoutBouncyCastle = new java.net.URLClassLoader(new java.net.URL[] {classes},
                ClassLoader.getPlatformClassLoader())) {
            Class<?> isolated = withoutBouncyCastle.loadClass(SignatureProvider.class.getName());
            assertThrows(ClassNotFoundException.class, () -> withoutBouncyCastle.loadClass(SignatureProvider.BOUNCY_CASTLE_CLASS));
            Object provider = isolated.getMethod("install").invoke(null);
            assertEquals(Optional.empty(), isolated.getMethod("name").invoke(provider));
            assertNull(Security.getProvider("BC"));
        } finally {
            if (registered != null) {
                Security.addProvider(registered);
            }
        }
    }

    private static KeyPair p256() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }
}
