package dev.keyright.seats.leases.entity;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The user (or host) the client reported already holds as many live seats as the license allows one user
 * (host): {@code maxPerUser} / {@code maxPerHost}. Another of its seats must be released first.
 */
public class HolderLimitReachedException extends SeatRefusal {

    private final String holderField;
    private final String name;
    private final long held;
    private final int limit;

    private HolderLimitReachedException(String type, String holderField, String name, long held, int limit) {
        super(type, "The " + holderField + " '" + name + "' already holds " + held + " seat(s) of this license, the most one "
                + holderField + " may hold (" + limit + "). Release one of them first.");
        this.holderField = holderField;
        this.name = name;
        this.held = held;
        this.limit = limit;
    }

    public static HolderLimitReachedException user(String user, long held, int limit) {
        return new HolderLimitReachedException("user-limit-reached", "user", user, held, limit);
    }

    public static HolderLimitReachedException host(String host, long held, int limit) {
        return new HolderLimitReachedException("host-limit-reached", "host", host, held, limit);
    }

    @Override
    public Map<String, Object> members() {
        Map<String, Object> members = new LinkedHashMap<>();
        members.put(holderField, name);
        members.put("held", held);
        members.put("user".equals(holderField) ? "maxPerUser" : "maxPerHost", limit);
        return members;
    }
}
