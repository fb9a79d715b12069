package dev.keyright.seats.database;

import java.security.SecureRandom;
import java.util.HexFormat;

/** Unguessable identifiers: 128 random bits behind a readable prefix. */
public final class Ids {

    private static final SecureRandom RANDOM = new SecureRandom();

    private Ids() {
    }

    public static String lease() {
        return "lease_" + random128();
    }

    public static String license() {
        return "lic_" + random128();
    }

    public static String activation() {
        return "act_" + random128();
    }

    public static String queueEntry() {
        return "q_" + random128();
    }

    public static String event() {
        return "ev_" + random128();
    }

    private static String random128() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
