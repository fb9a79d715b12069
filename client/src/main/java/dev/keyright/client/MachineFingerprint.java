package dev.keyright.client;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The default fingerprint a node-locked activation is bound to: the hex SHA-256 of a fixed label, the product
 * and the operating system's identity of the machine ({@link MachineIdentity}), 64 characters of {@code [0-9a-f]}.
 * <p>
 * Stable: the same machine gives the same value after a reboot or an update, so an activation survives them;
 * a re-installed operating system or a replaced main board is a new machine. Different per product: two
 * vendors using Keyright on one machine see unrelated fingerprints, so they cannot correlate their customers'
 * machines, and the raw machine id never leaves the machine. A cloned virtual machine that keeps its
 * machine id is the same machine to this fingerprint; give such installs a fingerprint of your own.
 */
public final class MachineFingerprint {

    /** Versions the derivation: a future change of inputs must not collide with today's values. */
    static final String LABEL = "keyright-machine-fingerprint-v1";

    private MachineFingerprint() {
    }

    /**
     * This machine's fingerprint for {@code product}.
     *
     * @throws KeyrightException when the operating system gives no machine identity
     */
    public static String of(String product) {
        return derive(product, MachineIdentity.ofThisMachine().read());
    }

    /** The fingerprint of a machine whose operating system identity is {@code machineIdentity}. */
    public static String derive(String product, String machineIdentity) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            byte[] input = (LABEL + "\n" + product + "\n" + machineIdentity).getBytes(StandardCharsets.UTF_8);
            return HexFormat.of().formatHex(sha256.digest(input));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java platform has SHA-256", e);
        }
    }
}
