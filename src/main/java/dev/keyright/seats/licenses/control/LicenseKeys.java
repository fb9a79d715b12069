package dev.keyright.seats.licenses.control;

import dev.keyright.seats.secrets.ServerSecret;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Locale;

/**
 * License keys: 140 random bits in seven groups of four Crockford base32 characters behind a product
 * prefix ({@code ACME-7F3K-...}). The server stores only their keyed hash and compares in constant time.
 */
public final class LicenseKeys {

    private static final char[] ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".toCharArray();
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int GROUPS = 7;
    private static final int GROUP_LENGTH = 4;
    public static final int MAX_LENGTH = 128;

    private final ServerSecret secret;

    public LicenseKeys(ServerSecret secret) {
        this.secret = secret;
    }

    public static String generate(String product) {
        StringBuilder key = new StringBuilder(prefix(product));
        for (int g = 0; g < GROUPS; g++) {
            key.append('-');
            for (int c = 0; c < GROUP_LENGTH; c++) {
                key.append(ALPHABET[RANDOM.nextInt(ALPHABET.length)]);
            }
        }
        return key.toString();
    }

    static String prefix(String product) {
        String letters = product.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "");
        return letters.isEmpty() ? "KR" : letters.substring(0, Math.min(4, letters.length()));
    }

    /** The keyed hash stored in place of the key (hex HMAC-SHA-256 of the normalized key). */
    public String hash(String key) {
        byte[] mac = secret.mac("license-key", normalize(key).getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(mac);
    }

    /** Constant-time comparison of a presented key with a stored hash. */
    public boolean matches(String presentedKey, String storedHash) {
        return sameHash(hash(presentedKey), storedHash);
    }

    /** Constant-time comparison of two hashes, for a caller that already hashed the presented key. */
    public static boolean sameHash(String presentedHash, String storedHash) {
        return MessageDigest.isEqual(presentedHash.getBytes(StandardCharsets.US_ASCII),
                storedHash.getBytes(StandardCharsets.US_ASCII));
    }

    private static String normalize(String key) {
        return key.trim().toUpperCase(Locale.ROOT);
    }
}
