package dev.keyright.seats.monitoring.boundary;

/** {@code dev.keyright:type=SeatPool,license=<id>}: one license's pool. Counters are this node's since start. */
public interface SeatPoolMXBean {
    String getLicenseId();
    String getProduct();
    /** Live seats now, from the database (every node's grants). */
    long getSeatsInUse();
    int getMaxSeats();
    /** Installs waiting in the license's queue now, from the database (every node's waiters). */
    int getSeatsQueued();
    long getAcquisitions();
    long getRenewals();
    long getReleases();
    long getExpiries();
    long getDenials();
    long getRevocations();
}
