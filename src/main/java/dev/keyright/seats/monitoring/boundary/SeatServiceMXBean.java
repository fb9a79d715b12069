package dev.keyright.seats.monitoring.boundary;

/** {@code dev.keyright:type=SeatService}: the whole server, as this node sees it. */
public interface SeatServiceMXBean {
    int getLicenses();
    long getAcquisitions();
    long getRenewals();
    long getReleases();
    long getExpiries();
    long getDenials();
    long getRevocations();
    /** This node's clock minus the database's, in milliseconds (positive: this node is ahead). */
    long getClockDriftMillis();
    /** True when the drift exceeds half the default skew allowance. */
    boolean isClockDriftWarning();
    boolean isDatabaseReachable();
}
