package dev.keyright.seats.monitoring.control;

import dev.keyright.seats.leases.entity.SeatEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What this node did to each pool since it started: cheap counters for JMX. The seats in use are not
 * counted here; they are always read from the database, the only truth shared by every node.
 */
@ApplicationScoped
public class SeatMetrics {

    private final Map<String, PoolCounters> pools = new ConcurrentHashMap<>();

    @Inject
    Event<PoolFull> poolFull;
    @Inject
    Event<OverdraftStarted> overdraftStarted;

    public PoolCounters of(String licenseId) {
        return pools.computeIfAbsent(licenseId, id -> new PoolCounters());
    }

    /** Counts what the seat lifecycle reports. */
    void observe(@Observes SeatEvent event) {
        switch (event.kind()) {
            case GRANTED -> granted(event.licenseId(), event.product(), event.seatsInUse(), event.maxSeats(), event.overdraft());
            case RENEWED -> renewed(event.licenseId());
            case RELEASED -> released(event.licenseId());
            case EXPIRED -> expired(event.licenseId());
            case DENIED -> denied(event.licenseId(), event.reason());
            case REVOKED -> revoked(event.licenseId());
        }
    }

    public void granted(String licenseId, String product, long seatsInUse, int maxSeats, boolean overdraft) {
        of(licenseId).acquisitions.increment();
        if (overdraft) {
            of(licenseId).overdraftCheckouts.increment();
            if (seatsInUse == maxSeats + 1L) {
                overdraftStarted.fire(new OverdraftStarted(licenseId, product, seatsInUse, maxSeats));
            }
        } else if (seatsInUse >= maxSeats) {
            poolFull.fire(new PoolFull(licenseId, product, seatsInUse, maxSeats));
        }
    }

    public void renewed(String licenseId) {
        of(licenseId).renewals.increment();
    }

    public void released(String licenseId) {
        of(licenseId).releases.increment();
    }

    public void expired(String licenseId) {
        of(licenseId).expiries.increment();
    }

    /** A refusal, by its reason (a problem type; none said: {@code seats-exhausted}). */
    public void denied(String licenseId, String reason) {
        PoolCounters counters = of(licenseId);
        counters.denials.increment();
        counters.denialsByReason.computeIfAbsent(reason == null ? "seats-exhausted" : reason, r -> new LongAdder()).increment();
    }

    public void revoked(String licenseId) {
        of(licenseId).revocations.increment();
    }

    /** Sum of one counter over every pool. */
    public long total(java.util.function.Function<PoolCounters, LongAdder> counter) {
        return pools.values().stream().mapToLong(c -> counter.apply(c).sum()).sum();
    }

    /** The counters of one pool. */
    public static final class PoolCounters {
        public final LongAdder acquisitions = new LongAdder();
        public final LongAdder renewals = new LongAdder();
        public final LongAdder releases = new LongAdder();
        public final LongAdder expiries = new LongAdder();
        public final LongAdder denials = new LongAdder();
        public final LongAdder revocations = new LongAdder();
        public final LongAdder overdraftCheckouts = new LongAdder();
        public final Map<String, LongAdder> denialsByReason = new ConcurrentHashMap<>();
    }

    /** The first seat beyond the license's seats was just granted, out of its overdraft (billed). */
    public record OverdraftStarted(String licenseId, String product, long seatsInUse, int maxSeats) {
    }

    /** A pool just became full: its last free seat was granted. */
    public record PoolFull(String licenseId, String product, long seatsInUse, int maxSeats) {
    }
}
