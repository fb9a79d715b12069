package dev.keyright.seats.web;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/** The wire contract's timestamps: RFC 3339, UTC, whole seconds ({@code 2026-11-13T14:32:05Z}). */
public final class Timestamps {

    private Timestamps() {
    }

    public static String format(Instant instant) {
        return DateTimeFormatter.ISO_INSTANT.format(instant.truncatedTo(ChronoUnit.SECONDS));
    }
}
