package dev.keyright.client;

import java.time.Instant;

/**
 * The wall clock is past the signed expiry: a borrowed seat past {@code borrowedUntil}, or an activation
 * certificate past its {@code exp} (the machine stayed offline longer than the license's {@code offlineDays}).
 * Borrow again, or let the machine reach the server to refresh its activation.
 */
public class OfflineLicenseExpiredException extends OfflineLicenseException {

    private static final long serialVersionUID = 1L;

    private final Instant expiredAt;

    public OfflineLicenseExpiredException(String message, Instant expiredAt) {
        super(message, null);
        this.expiredAt = expiredAt;
    }

    /** The signed expiry that passed. */
    public Instant expiredAt() {
        return expiredAt;
    }
}
