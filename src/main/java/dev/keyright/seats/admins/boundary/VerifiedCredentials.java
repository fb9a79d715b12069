package dev.keyright.seats.admins.boundary;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Credentials that passed the slow password check recently, as HMAC digests under a key that lives only
 * in this process. Entries expire after {@value #TTL_MILLIS} ms; at most {@value #MAX_ENTRIES} are kept.
 */
final class VerifiedCredentials {

    static final long TTL_MILLIS = 5 * 60_000;
    static final int MAX_ENTRIES = 64;

    private final byte[] key = new byte[32];
    private final Map<String, Long> verifiedAt = new ConcurrentHashMap<>();

    VerifiedCredentials() {
        new SecureRandom().nextBytes(key);
    }

    boolean contains(String user, char[] password) {
        Long at = verifiedAt.get(digest(user, password));
        return at != null && System.currentTimeMillis() - at < TTL_MILLIS;
    }

    void add(String user, char[] password) {
        if (verifiedAt.size() >= MAX_ENTRIES) {
            verifiedAt.clear();
        }
        verifiedAt.put(digest(user, password), System.currentTimeMillis());
    }

    private String digest(String user, char[] password) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update(user.getBytes(StandardCharsets.UTF_8));
            mac.update((byte) 0);
            return HexFormat.of().formatHex(mac.doFinal(new String(password).getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }
}
