package dev.keyright.seats.leases.boundary;

import dev.keyright.seats.configuration.KeyrightConfig;
import dev.keyright.seats.leases.entity.Liveness;
import dev.keyright.seats.leases.entity.SeatEvent;
import jakarta.enterprise.event.Event;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Deletes leases dead past the skew by more than the reap grace, and idempotency records older than
 * 24 hours, in bounded batches. Runs on every node; correctness never depends on it having run (the
 * count goes by expiry), and its deletes are idempotent.
 */
@Singleton
@DependsOn("StartUp")
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class LeaseReaper {

    public static final Duration IDEMPOTENCY_RETENTION = Duration.ofHours(24);
    private static final Logger LOG = Logger.getLogger(LeaseReaper.class.getName());

    @Inject
    Reaping reaping;
    @Inject
    KeyrightConfig config;
    @Inject
    Clock clock;
    @Inject
    Event<SeatEvent> seatEvents;

    private final AtomicBoolean sweeping = new AtomicBoolean();
    private volatile Instant lastSweep = Instant.EPOCH;
    private volatile Sweep lastResult = new Sweep(Instant.EPOCH, 0, 0, Duration.ZERO);
    private volatile long totalReaped;

    @Schedule(hour = "*", minute = "*", second = "*", persistent = false, info = "lease reaper")
    void onTimer() {
        reapIfDue();
    }

    /** Sweeps when the configured interval has passed since the last sweep. */
    public void reapIfDue() {
        Instant now = clock.instant();
        if (Duration.between(lastSweep, now).compareTo(config.reapInterval()) >= 0) {
            reap();
        }
    }

    /** One sweep now; returns what it did. Skips (returns empty work) if a sweep is already running here. */
    public Sweep reap() {
        if (!sweeping.compareAndSet(false, true)) {
            return new Sweep(clock.instant(), 0, 0, Duration.ZERO);
        }
        long started = System.nanoTime();
        Instant now = clock.instant();
        try {
            Instant cutoff = Liveness.reapableBefore(now, config.reapGrace(), Duration.ofSeconds(config.maxSkewSeconds()));
            int leases = drain(() -> {
                List<String> licenses = reaping.reapLeases(cutoff, now, config.reapBatchSize());
                licenses.forEach(id -> seatEvents.fire(SeatEvent.of(SeatEvent.Kind.EXPIRED, id)));
                return licenses.size();
            });
            int records = drain(() -> reaping.purgeIdempotencyRecords(now.minus(IDEMPOTENCY_RETENTION), config.reapBatchSize()));
            drain(() -> reaping.purgeEvents(now.minus(config.eventRetention()), config.reapBatchSize()));
            Sweep sweep = new Sweep(now, leases, records, Duration.ofNanos(System.nanoTime() - started));
            totalReaped += leases;
            lastResult = sweep;
            return sweep;
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Lease sweep failed; the next one will try again: {0}", e.toString());
            return new Sweep(now, 0, 0, Duration.ofNanos(System.nanoTime() - started));
        } finally {
            lastSweep = now;
            sweeping.set(false);
        }
    }

    private int drain(java.util.function.IntSupplier batch) {
        int total = 0;
        for (int round = 0; round < 1_000; round++) {
            int done = batch.getAsInt();
            total += done;
            if (done < config.reapBatchSize()) {
                break;
            }
        }
        return total;
    }

    public Sweep lastSweep() {
        return lastResult;
    }

    public long totalReaped() {
        return totalReaped;
    }

    /** What one sweep did. */
    public record Sweep(Instant at, int leasesReaped, int idempotencyRecordsPurged, Duration duration) {
    }
}
