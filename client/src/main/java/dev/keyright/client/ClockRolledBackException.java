package dev.keyright.client;

import java.time.Instant;

/**
 * The wall clock shows a time before one this machine has already passed: a clock set back to stretch an
 * offline license. Refused until the clock is right again; nothing is deleted.
 */
public class ClockRolledBackException extends OfflineLicenseException {

    private static final long serialVersionUID = 1L;

    private final Instant lastSeen;
    private final Instant now;

    public ClockRolledBackException(String message, Instant lastSeen, Instant now) {
        super(message, null);
        this.lastSeen = lastSeen;
        this.now = now;
    }

    /**
     * The latest time the clock is known to have reached: the {@code lastSeen} kept in the store, or the
     * server's time when it signed the token ({@code iat}), whichever is later.
     */
    public Instant lastSeen() {
        return lastSeen;
    }

    /** What the clock showed instead. */
    public Instant now() {
        return now;
    }
}
