package dev.keyright.seats.monitoring.boundary;

import dev.keyright.seats.monitoring.control.ReaperStatistics;
import java.time.Instant;

/** The reaper's MXBean: point-in-time reads of its last sweep. */
class ReaperMonitor implements ReaperMXBean {

    private final ApplicationContext app = new ApplicationContext();

    private final ReaperStatistics reaper;

    ReaperMonitor(ReaperStatistics reaper) {
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
