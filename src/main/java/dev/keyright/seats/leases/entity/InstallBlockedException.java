package dev.keyright.seats.leases.entity;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.Optional;

/** An administrator revoked this install's seat and blocked it until {@code blockedUntil}: no seat before then. */
public class InstallBlockedException extends SeatRefusal {

    private final Instant blockedUntil;
    private final int retryAfter;

    public InstallBlockedException(Instant blockedUntil, Instant now) {
        super("install-blocked", "An administrator blocked this install until "
                + DateTimeFormatter.ISO_INSTANT.format(wholeSecondAtOrAfter(blockedUntil)) + "; it gets no seat before then.");
        this.blockedUntil = wholeSecondAtOrAfter(blockedUntil);
        this.retryAfter = (int) Math.max(1, (Duration.between(now, blockedUntil).toMillis() + 999) / 1000);
    }

    /** Shown in whole seconds like every time of the API, rounded up: the block has surely ended then. */
    private static Instant wholeSecondAtOrAfter(Instant instant) {
        Instant whole = instant.truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        return whole.equals(instant) ? whole : whole.plusSeconds(1);
    }

    @Override
    public Map<String, Object> members() {
        return Map.of("blockedUntil", DateTimeFormatter.ISO_INSTANT.format(blockedUntil));
    }

    @Override
    public Optional<Integer> retryAfterSeconds() {
        return Optional.of(retryAfter);
    }
}
