package dev.keyright.seats.leases.control;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The seats-in-use figure a heartbeat reports, for display only, recounted at most once a second per
 * license on this node: heartbeats never count (10,000 renewals a second must not mean 10,000 counts),
 * and no decision is ever made on this number. Checkout always counts under its lock.
 */
@ApplicationScoped
public class RecentCounts {

    static final Duration FRESH_FOR = Duration.ofSeconds(1);

    private final Map<String, Reading> readings = new ConcurrentHashMap<>();

    public long seatsInUse(String licenseId, Instant now, LongSupplier count) {
        Reading reading = readings.get(licenseId);
        if (reading == null || !reading.at().plus(FRESH_FOR).isAfter(now) || reading.at().isAfter(now)) {
            reading = new Reading(count.getAsLong(), now);
            readings.put(licenseId, reading);
            if (readings.size() > 100_000) {
                readings.clear();
            }
        }
        return reading.count();
    }

    private record Reading(long count, Instant at) {
    }
}
