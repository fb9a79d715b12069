package dev.keyright.seats.monitoring.boundary;

import dev.keyright.seats.licenses.boundary.Licenses;
import dev.keyright.seats.monitoring.control.SeatMetrics;

/** The service-level MXBean: totals, clock drift against the database, database reachability. */
class SeatServiceMonitor implements SeatServiceMXBean {

    private final ApplicationContext app = new ApplicationContext();

    private final Licenses licenses;
    private final SeatMetrics metrics;
    private final DatabaseProbe probe;

    SeatServiceMonitor(Licenses licenses, SeatMetrics metrics, DatabaseProbe probe) {
        this.licenses = licenses;
        this.metrics = metrics;
        this.probe = probe;
    }

    @Override public int getLicenses() { return app.call(() -> (int) licenses.count()); }
    @Override public long getAcquisitions() { return app.call(() -> metrics.total(c -> c.acquisitions)); }
    @Override public long getRenewals() { return app.call(() -> metrics.total(c -> c.renewals)); }
    @Override public long getReleases() { return app.call(() -> metrics.total(c -> c.releases)); }
    @Override public long getExpiries() { return app.call(() -> metrics.total(c -> c.expiries)); }
    @Override public long getDenials() { return app.call(() -> metrics.total(c -> c.denials)); }
    @Override public long getRevocations() { return app.call(() -> metrics.total(c -> c.revocations)); }
    @Override public long getClockDriftMillis() { return app.call(() -> probe.read().driftMillis()); }
    @Override public boolean isClockDriftWarning() { return app.call(() -> probe.driftWarning(probe.read())); }
    @Override public boolean isDatabaseReachable() { return app.call(() -> probe.read().reachable()); }
}
