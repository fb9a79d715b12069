package dev.keyright.seats.licenses.control;

import dev.keyright.seats.licenses.entity.License;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The licenses this node looked up by key in the last second, for heartbeats and releases: a renew needs the license's
 * TTL, skew, status and end date, and looking it up (a keyed hash and a query) was a tenth of a renew's cost.
 * A change made on this node ({@link #forgetAll}) shows at once; one made on another node (a suspension, a new
 * key, a new TTL) shows on this node's renewals and releases up to {@link #FRESH_FOR_NANOS} late. Checkout never uses this: it
 * reads the license under its row lock. Freshness is measured on the JVM's monotonic timer, not the server's
 * {@code Clock} (which tests move): it is about how old the copy is, not about lease time.
 */
@ApplicationScoped
public class RecentLicenses {

    public static final long FRESH_FOR_NANOS = 1_000_000_000L;
    static final int MAX_ENTRIES = 10_000;

    private final Map<String, Entry> byKeyHash = new ConcurrentHashMap<>();

    /** The license the key with this hash opened less than a second ago, if this node looked it up. */
    public Optional<License> find(String keyHash, long nowNanos) {
        Entry entry = byKeyHash.get(keyHash);
        if (entry == null || nowNanos - entry.loadedNanos() >= FRESH_FOR_NANOS) {
            return Optional.empty();
        }
        return Optional.of(entry.license());
    }

    /** A license as just read (detached: never changed through this copy). */
    public void remember(String keyHash, License license, long nowNanos) {
        if (byKeyHash.size() >= MAX_ENTRIES) {
            byKeyHash.clear();
        }
        byKeyHash.put(keyHash, new Entry(license, nowNanos));
    }

    /** A license changed on this node: the next heartbeat reads it again. */
    public void forgetAll() {
        byKeyHash.clear();
    }

    private record Entry(License license, long loadedNanos) {
    }
}
