package dev.keyright.seats.leases.boundary;

import dev.keyright.seats.configuration.KeyrightConfig;
import dev.keyright.seats.database.Batches;
import dev.keyright.seats.leases.entity.Liveness;
import dev.keyright.seats.leases.entity.SeatEvent;
import dev.keyright.seats.licenses.entity.Policy;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Deletes the leases feature's dead rows: leases dead past the skew by more than the reap grace, and
 * usage history past its retention (a queue's dead places leave under its license lock, when the line is
 * read: a sweep across every license's queue would lock rows that checkouts write), in bounded batches ({@link Reaping}). Runs on every node; correctness
 * never depends on it having run (the count goes by expiry), and its deletes are idempotent. Each sweep
 * is reported as a {@link Sweep} event, which monitoring observes.
 */
@ApplicationScoped
public class LeaseReaper {

    private static final Logger LOG = Logger.getLogger(LeaseReaper.class.getName());

    @EJB
    Reaping reaping;
    @Inject
    KeyrightConfig config;
    @Inject
    Clock clock;
    @Inject
    Event<SeatEvent> seatEvents;
    @Inject
    Event<Sweep> sweeps;

    private final AtomicBoolean sweeping = new AtomicBoolean();

    /** One sweep now; returns what it did. Skips (returns empty work) if a sweep is already running here. */
    public Sweep reap() {
        if (!sweeping.compareAndSet(false, true)) {
            return new Sweep(clock.instant(), 0, Duration.ZERO);
        }
        long started = System.nanoTime();
        Instant now = clock.instant();
        try {
            Instant cutoff = Liveness.reapableBefore(now, config.reapGrace(), Duration.ofSeconds(Policy.maxSkewSeconds(config.reapGrace())));
            int leases = Batches.drain(config.reapBatchSize(), () -> {
                List<String> licenses = reaping.reapLeases(cutoff, now, config.reapBatchSize());
                licenses.forEach(id -> seatEvents.fire(SeatEvent.of(SeatEvent.Kind.EXPIRED, id)));
                return licenses.size();
            });
            Batches.drain(config.reapBatchSize(), () -> reaping.purgeEvents(now.minus(config.eventRetention()), config.reapBatchSize()));
            Sweep sweep = new Sweep(now, leases, Duration.ofNanos(System.nanoTime() - started));
            sweeps.fire(sweep);
            return sweep;
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Lease sweep failed; the next one will try again: {0}", e.toString());
            return new Sweep(now, 0, Duration.ofNanos(System.nanoTime() - started));
        } finally {
            sweeping.set(false);
        }
    }

    /** What one sweep did. */
    public record Sweep(Instant at, int leasesReaped, Duration duration) {
    }
}
