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
    /** Live seats granted beyond the license's seats, out of its overdraft, from the database. */
    long getOverdraftInUse();
    /** The license's overdraft: seats that may be granted beyond its seats (billed). */
    int getOverdraftSeats();
    /** Seats the license's reservations keep for their owners, together. */
    int getReservedSeats();
    /** Live seats borrowed for offline use (counted until they were borrowed until), from the database. */
    long getBorrowedSeats();
    long getAcquisitions();
    /** Checkouts this node granted out of the overdraft since it started. */
    long getOverdraftCheckouts();
    long getRenewals();
    long getReleases();
    long getExpiries();
    long getDenials();
    long getRevocations();
}
