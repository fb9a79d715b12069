package dev.keyright.seats.leases.entity;

/**
 * News of a seat for whoever watches the pools (monitoring observes it as a CDI event): the seat
 * lifecycle never calls its observers, so nothing above it is imported here.
 */
public record SeatEvent(Kind kind, String licenseId, String product, long seatsInUse, int maxSeats, boolean overdraft,
                        String reason) {

    public enum Kind { GRANTED, RENEWED, RELEASED, EXPIRED, DENIED, REVOKED }

    public static SeatEvent of(Kind kind, String licenseId) {
        return new SeatEvent(kind, licenseId, null, -1, -1, false, null);
    }

    /** A checkout refused, and why: the problem type ({@code seats-exhausted}, {@code user-limit-reached}, ...). */
    public static SeatEvent denied(String licenseId, String reason) {
        return new SeatEvent(Kind.DENIED, licenseId, null, -1, -1, false, reason);
    }

    /** A seat granted; {@code overdraft} when beyond the license's seats. */
    public static SeatEvent granted(String licenseId, String product, long seatsInUse, int maxSeats, boolean overdraft) {
        return new SeatEvent(Kind.GRANTED, licenseId, product, seatsInUse, maxSeats, overdraft, null);
    }
}
