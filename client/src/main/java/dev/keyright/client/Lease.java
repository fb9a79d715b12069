package dev.keyright.client;

import java.time.Duration;
import java.time.Instant;

/**
 * A held seat, as the server granted or renewed it, with a verified token.
 *
 * @param leaseId           the server's id of the seat; a capability, keep it to yourself
 * @param token             the verified lease token (compact JWS, {@code typ: lease+jwt})
 * @param expiresAt         the signed expiry, for display only: the SDK never compares it with the wall clock
 * @param ttlSeconds        the lease's time to live, counted from receipt
 * @param renewAfterSeconds when to renew, counted from receipt
 * @param seatsInUse        live seats of the license, this one included, when granted
 * @param maxSeats          the license's seats
 * @param requestedAtNanos  the client's monotonic {@link Ticker} reading when it sent the request that
 *                          produced this lease. The server starts the TTL somewhere between that moment and
 *                          the answer's arrival, so counting the local deadline from the send is the
 *                          fail-closed choice: the client gives the seat up no later than the server does.
 */
public record Lease(String leaseId, String token, Instant expiresAt, long ttlSeconds, long renewAfterSeconds,
                    int seatsInUse, int maxSeats, long requestedAtNanos) {

    public Duration ttl() {
        return Duration.ofSeconds(ttlSeconds);
    }

    /** When to renew: the server's advice, or a third of the TTL when the advice is not inside (0, TTL). */
    public Duration renewAfter() {
        boolean sensible = renewAfterSeconds > 0 && renewAfterSeconds < ttlSeconds;
        return sensible ? Duration.ofSeconds(renewAfterSeconds) : ttl().dividedBy(3);
    }

    /** The monotonic tick after which the client must consider this lease gone (fail closed). */
    public long localDeadlineNanos() {
        return requestedAtNanos + ttl().toNanos();
    }

    /** Reads the acquire/renew answer body; throws {@link IllegalArgumentException} when it is malformed. */
    static Lease read(String body, long requestedAtNanos) {
        JsonObject json = JsonObject.parse(body);
        Lease lease = new Lease(json.getString("leaseId"), json.getString("token"), json.getInstant("expiresAt"),
                json.getLong("ttlSeconds"), json.getLong("renewAfterSeconds"), json.getInt("seatsInUse"),
                json.getInt("maxSeats"), requestedAtNanos);
        if (lease.ttlSeconds <= 0 || lease.renewAfterSeconds < 0) {
            throw new IllegalArgumentException("ttlSeconds must be positive and renewAfterSeconds not negative");
        }
        return lease;
    }

    @Override
    public String toString() {
        return "Lease[" + leaseId + ", expiresAt=" + expiresAt + ", ttl=" + ttlSeconds + "s, renewAfter="
                + renewAfterSeconds + "s, seats=" + seatsInUse + "/" + maxSeats + "]";
    }
}
