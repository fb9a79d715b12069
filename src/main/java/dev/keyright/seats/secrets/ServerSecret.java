package dev.keyright.seats.secrets;

import dev.keyright.seats.configuration.ConfigurationException;
import dev.keyright.seats.configuration.DataDirectory;
import dev.keyright.seats.configuration.KeyrightConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The server secret, kept outside the database: {@code KEYRIGHT_KEY_SECRET}, or a file created once
 * under {@code KEYRIGHT_DATA_DIR}. It keys the license-key hashes and wraps the signing key, so a
 * database dump yields neither a usable license key nor the signing key. Every node of one
 * installation must share it.
 */
public final class ServerSecret {

    static final String FILE_NAME = "server.secret";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] secret;
    /** One derived key per purpose, computed once: a license-key check runs on every client call. */
    private final Map<String, SecretKeySpec> derived = new ConcurrentHashMap<>();
    /**
     * One HMAC per purpose, keyed once and never used itself: each {@link #mac} works on a copy of it, which
     * spares the provider lookup and the key set-up a new {@code Mac} costs on every client call.
     */
    private final Map<String, Mac> keyedMacs = new ConcurrentHashMap<>();

    ServerSecret(byte[] secret) {
        this.secret = secret.clone();
    }

    public static ServerSecret load(KeyrightConfig config) {
        if (config.keySecret().isPresent()) {
            return new ServerSecret(config.keySecret().get().getBytes(StandardCharsets.UTF_8));
        }
        return new ServerSecret(fromFile(config.dataDir().resolve(FILE_NAME)));
    }

    private static byte[] fromFile(Path file) {
        try {
            if (!Files.exists(file)) {
                create(file);
            }
            byte[] secret = Base64.getDecoder().decode(Files.readString(file).trim());
            if (secret.length < 32) {
                throw new ConfigurationException("The server secret " + file + " is too short");
            }
            return secret;
        } catch (IOException | IllegalArgumentException e) {
            throw new ConfigurationException("Cannot read or create the server secret " + file + ": " + e.getMessage());
        }
    }

    private static void create(Path file) throws IOException {
        DataDirectory.ensurePrivate(file.getParent());
        byte[] fresh = new byte[32];
        RANDOM.nextBytes(fresh);
        Path temp = Files.createTempFile(file.getParent(), "secret", ".tmp");
        try {
            DataDirectory.makePrivate(temp);
            Files.writeString(temp, Base64.getEncoder().encodeToString(fresh));
            Files.move(temp, file); // atomic create: a racing node keeps the first file
        } catch (FileAlreadyExistsException raced) {
            Files.deleteIfExists(temp);
        }
    }

    /** HMAC-SHA-256 of {@code data} under a key derived for {@code purpose}. */
    public byte[] mac(String purpose, byte[] data) {
        Mac keyed = keyedMacs.computeIfAbsent(purpose, p -> newMac(key(p, "HmacSHA256")));
        try {
            return ((Mac) keyed.clone()).doFinal(data);
        } catch (CloneNotSupportedException e) { // not the JDK's HmacSHA256: a new one each time
            return newMac(key(purpose, "HmacSHA256")).doFinal(data);
        }
    }

    private static Mac newMac(SecretKeySpec key) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    /** AES-GCM encryption of a small secret (the signing key) at rest. */
    public String wrap(byte[] plain) {
        try {
            byte[] iv = new byte[12];
            RANDOM.nextBytes(iv);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key("wrap", "AES"), new GCMParameterSpec(128, iv));
            byte[] sealed = cipher.doFinal(plain);
            byte[] out = new byte[iv.length + sealed.length];
            System.arraycopy(iv, 0, out, 0, iv.length);
            System.arraycopy(sealed, 0, out, iv.length, sealed.length);
            return Base64.getEncoder().encodeToString(out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM unavailable", e);
        }
    }

    public byte[] unwrap(String wrapped) {
        try {
            byte[] in = Base64.getDecoder().decode(wrapped);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key("wrap", "AES"), new GCMParameterSpec(128, in, 0, 12));
            return cipher.doFinal(in, 12, in.length - 12);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new ConfigurationException("The signing key in the database was wrapped with another server secret:"
                    + " every node must share KEYRIGHT_KEY_SECRET (or the same " + FILE_NAME + ")");
        }
    }

    private SecretKeySpec key(String purpose, String algorithm) {
        return derived.computeIfAbsent(purpose + "/" + algorithm, k -> new SecretKeySpec(derive(purpose), algorithm));
    }

    private byte[] derive(String purpose) {
        return newMac(new SecretKeySpec(secret, "HmacSHA256")).doFinal(("keyright/" + purpose).getBytes(StandardCharsets.UTF_8));
    }
}
