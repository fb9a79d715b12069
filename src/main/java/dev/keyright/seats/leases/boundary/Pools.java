package dev.keyright.seats.leases.boundary;

import dev.keyright.seats.leases.control.LiveLeases;
import dev.keyright.seats.leases.control.SeatQueue;
import dev.keyright.seats.leases.entity.QueueEntry;
import dev.keyright.seats.leases.entity.Lease;
import dev.keyright.seats.licenses.boundary.LicenseAuthentication;
import dev.keyright.seats.licenses.boundary.Licenses;
import dev.keyright.seats.licenses.entity.License;
import dev.keyright.seats.licenses.entity.OfflineUse;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** The pool views: "23 of 25 seats in use", who holds them and who waits, read with the one liveness rule. */
@Stateless
public class Pools {

    @Inject
    LiveLeases liveLeases;
    @EJB
    Licenses licenses;
    @Inject
    LicenseAuthentication authentication;
    @Inject
    Clock clock;
    @Inject
    SeatQueue queue;

    /** The pool of the caller's license. */
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public Pool pool(String product, String licenseKey) {
        License license = authentication.authenticate(product, licenseKey);
        license.require(OfflineUse.Model.FLOATING);
        return poolOf(license);
    }

    /** Live seats and the seat count of a license, read now (for monitoring). */
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public PoolSize seatsInUse(String licenseId) {
        License license = licenses.get(licenseId);
        Instant now = clock.instant();
        LiveLeases.OverdraftAndBorrowed beyond = liveLeases.countOverdraftAndBorrowed(license, now);
        return new PoolSize(liveLeases.count(license, now), license.seats(), queue.waiting(licenseId, now).size(),
                beyond.overdraft(), license.sharing().overdraftSeats(), license.sharing().reservedSeats(),
                beyond.borrowed());
    }

    /**
     * How full a pool is, how many installs wait for a seat, the overdraft in use, the seats reservations keep and the
     * seats borrowed for offline use.
     */
    public record PoolSize(long inUse, int max, int queued, long overdraftInUse, int overdraftSeats, int reservedSeats,
                           long borrowed) {
    }

    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public Pool poolOf(License license) {
        Instant now = clock.instant();
        return new Pool(license, liveLeases.list(license, now), queue.waiting(license.id(), now));
    }

    /** The pools of many licenses, read with one query (the admin list), in the order given. */
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public List<Pool> poolsOf(List<License> licenses) {
        Instant now = clock.instant();
        Map<String, List<Lease>> live = liveLeases.byLicense(licenses, now);
        Map<String, List<QueueEntry>> waiting = queue.byLicense(licenses.stream().map(License::id).toList(), now);
        return licenses.stream().map(license ->
                new Pool(license, live.get(license.id()), waiting.getOrDefault(license.id(), List.of()))).toList();
    }
}
