package dev.keyright.seats.monitoring.boundary;

import dev.keyright.seats.leases.boundary.LeaseReaper;
import java.time.Instant;

/** The reaper's MXBean: point-in-time reads of its last sweep. */
class ReaperMonitor implements ReaperMXBean {

    private final ApplicationContext app = new ApplicationContext();

    private final LeaseReaper reaper;

    ReaperMonitor(LeaseReaper reaper) {
        this.reaper = reaper;
    }

    @Override
    public String getLastSweepTime() {
        Instant at = app.call(() -> reaper.lastSweep().at());
        return Instant.EPOCH.equals(at) ? "" : at.toString();
    }

    @Override public int getLastSweepRowsReaped() { return app.call(() -> reaper.lastSweep().leasesReaped()); }
    @Override public long getRowsReapedTotal() { return app.call(() -> reaper.totalReaped()); }
    @Override public long getLastSweepDurationMillis() { return app.call(() -> reaper.lastSweep().duration().toMillis()); }
}
