package dev.keyright.seats.idempotency.entity;

/** The parts of a response a replay repeats exactly: status, {@code Location} and body. */
public record StoredResponse(int status, String location, String body) {
}
