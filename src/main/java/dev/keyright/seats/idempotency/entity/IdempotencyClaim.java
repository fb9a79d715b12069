package dev.keyright.seats.idempotency.entity;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * An acquire's claim on an Idempotency-Key: the key, the license it is scoped to, and the fingerprint
 * of the request (method, path, canonical body). The record id is a digest of (license, key).
 */
public record IdempotencyClaim(String licenseId, String key, String fingerprint) {

    public String id() {
        return sha256(licenseId + "\n" + key);
    }

    public static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
