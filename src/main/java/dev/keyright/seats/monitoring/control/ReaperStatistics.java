package dev.keyright.seats.monitoring.control;

import dev.keyright.seats.leases.boundary.LeaseReaper;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/** This node's reaper as the sweeps it reports tell: the last one, and the rows reaped in all. */
@ApplicationScoped
public class ReaperStatistics {

    private volatile LeaseReaper.Sweep last = new LeaseReaper.Sweep(Instant.EPOCH, 0, Duration.ZERO);
    private final AtomicLong totalReaped = new AtomicLong();
    private final AtomicLong sweeps = new AtomicLong();

    void swept(@Observes LeaseReaper.Sweep sweep) {
        last = sweep;
        totalReaped.addAndGet(sweep.leasesReaped());
        sweeps.incrementAndGet();
    }

    /** How many sweeps this node's reaper made since it started. */
    public long sweeps() {
        return sweeps.get();
    }

    public LeaseReaper.Sweep lastSweep() {
        return last;
    }

    public long totalReaped() {
        return totalReaped.get();
    }
}
