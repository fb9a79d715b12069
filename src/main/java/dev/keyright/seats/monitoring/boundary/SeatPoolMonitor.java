package dev.keyright.seats.monitoring.boundary;

import dev.keyright.seats.leases.boundary.Pools;
import dev.keyright.seats.monitoring.control.SeatMetrics;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.MBeanNotificationInfo;
import javax.management.Notification;
import javax.management.NotificationBroadcasterSupport;

/**
 * One pool's MXBean; sends {@value #POOL_FULL} when its last free seat is granted and {@value #OVERDRAFT} when the
 * first seat beyond the license's seats is granted (overdraft use is billed).
 */
public class SeatPoolMonitor extends NotificationBroadcasterSupport implements SeatPoolMXBean {

    private final ApplicationContext app = new ApplicationContext();

    public static final String POOL_FULL = "dev.keyright.pool.full";
    public static final String OVERDRAFT = "dev.keyright.pool.overdraft";

    private final String licenseId;
    private final String product;
    private final Pools pools;
    private final SeatMetrics.PoolCounters counters;
    private final AtomicLong sequence = new AtomicLong();

    SeatPoolMonitor(String licenseId, String product, Pools pools, SeatMetrics metrics) {
        super(new MBeanNotificationInfo(new String[] {POOL_FULL}, Notification.class.getName(),
                        "Every seat of the pool is in use"),
                new MBeanNotificationInfo(new String[] {OVERDRAFT}, Notification.class.getName(),
                        "The first seat beyond the license's seats was granted, out of its overdraft"));
        this.licenseId = licenseId;
        this.product = product;
        this.pools = pools;
        this.counters = metrics.of(licenseId);
    }

    void notifyFull(SeatMetrics.PoolFull full) {
        Notification notification = new Notification(POOL_FULL, this, sequence.incrementAndGet(), System.currentTimeMillis(),
                "All " + full.maxSeats() + " seats of " + full.product() + " (" + licenseId + ") are in use");
        notification.setUserData(full.seatsInUse());
        sendNotification(notification);
    }

    void notifyOverdraft(SeatMetrics.OverdraftStarted started) {
        Notification notification = new Notification(OVERDRAFT, this, sequence.incrementAndGet(), System.currentTimeMillis(),
                "Overdraft in use: " + started.seatsInUse() + " seats of " + started.product() + " (" + licenseId
                        + ") are held, " + started.maxSeats() + " licensed");
        notification.setUserData(started.seatsInUse());
        sendNotification(notification);
    }

    @Override public String getLicenseId() { return licenseId; }
    @Override public String getProduct() { return product; }
    @Override public long getSeatsInUse() { return app.call(() -> pools.seatsInUse(licenseId).inUse()); }
    @Override public int getMaxSeats() { return app.call(() -> pools.seatsInUse(licenseId).max()); }
    @Override public int getSeatsQueued() { return app.call(() -> pools.seatsInUse(licenseId).queued()); }
    @Override public long getOverdraftInUse() { return app.call(() -> pools.seatsInUse(licenseId).overdraftInUse()); }
    @Override public int getOverdraftSeats() { return app.call(() -> pools.seatsInUse(licenseId).overdraftSeats()); }
    @Override public int getReservedSeats() { return app.call(() -> pools.seatsInUse(licenseId).reservedSeats()); }
    @Override public long getBorrowedSeats() { return app.call(() -> pools.seatsInUse(licenseId).borrowed()); }
    @Override public long getOverdraftCheckouts() { return counters.overdraftCheckouts.sum(); }
    @Override public long getAcquisitions() { return counters.acquisitions.sum(); }
    @Override public long getRenewals() { return counters.renewals.sum(); }
    @Override public long getReleases() { return counters.releases.sum(); }
    @Override public long getExpiries() { return counters.expiries.sum(); }
    @Override public long getDenials() { return counters.denials.sum(); }
    @Override public long getRevocations() { return counters.revocations.sum(); }
}
