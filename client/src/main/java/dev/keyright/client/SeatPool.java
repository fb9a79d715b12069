package dev.keyright.client;

import java.time.Instant;
import java.util.List;

/** The live pool of the caller's license: seats in use, the maximum, and who holds them. */
public record SeatPool(String product, int inUse, int max, List<Holder> holders) {

    public SeatPool {
        holders = List.copyOf(holders);
    }

    /**
     * One live seat, as shown to other holders (lease ids and client instance ids are never shown); {@code user}
     * and {@code host} are null when the install did not say them, as the server's {@code null}.
     */
    public record Holder(String user, String host, Instant acquiredAt, Instant expiresAt) {
    }

    static SeatPool read(String body) {
        JsonObject pool = JsonObject.parse(body);
        List<Holder> holders = pool.findList("holders").stream().map(JsonObject::of)
                .map(h -> new Holder(h.findString("user").orElse(null), h.findString("host").orElse(null),
                        h.findInstant("acquiredAt").orElse(null),
                        h.findInstant("expiresAt").orElse(null)))
                .toList();
        return new SeatPool(pool.getString("product"), pool.getInt("inUse"), pool.getInt("max"), holders);
    }
}
