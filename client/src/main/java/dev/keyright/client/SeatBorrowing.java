package dev.keyright.client;

import java.time.Duration;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The online half of borrowing: a held lease is borrowed on the server, its new token verified with the JWKS
 * fetched for it, and both kept in the offline store; later the seat is returned early. A borrowed seat that
 * cannot be kept (its token does not verify, this machine's clock could not use it, the store cannot be
 * written) is released at once: otherwise it would stay taken on the server, unusable, for hours. Unless it is
 * the seat already borrowed here (a second borrow of it, to go on longer): that one stays borrowed, with the
 * token already stored.
 */
final class SeatBorrowing {

    /** The longest borrow the contract can say: a license's {@code maxBorrowHours} is at most 720. */
    static final long LONGEST_HOURS = 720;
    private static final Logger LOG = Logger.getLogger(SeatBorrowing.class.getName());

    private final SeatEndpoints endpoints;
    private final OfflineLicense offline;

    SeatBorrowing(SeatEndpoints endpoints, OfflineLicense offline) {
        this.endpoints = endpoints;
        this.offline = offline;
    }

    /**
     * The whole hours the contract's {@code {"hours": N}} says for {@code duration}, rounded up.
     *
     * @throws IllegalArgumentException under one hour, or over {@link #LONGEST_HOURS}
     */
    static long hours(Duration duration) {
        if (duration == null || duration.compareTo(Duration.ofHours(1)) < 0) {
            throw new IllegalArgumentException("A seat is borrowed for 1 hour at least, not " + duration);
        }
        if (duration.compareTo(Duration.ofHours(LONGEST_HOURS)) > 0) {
            throw new IllegalArgumentException("A seat is borrowed for " + LONGEST_HOURS + " hours (30 days) at most");
        }
        long seconds = duration.getSeconds() + (duration.getNano() > 0 ? 1 : 0);
        return (seconds + 3599) / 3600;
    }

    BorrowedSeat borrow(Lease lease, Duration duration) {
        long hours = hours(duration);
        String jwks = offline.embedsKey() ? null : endpoints.jwks();
        Transport.Response response = endpoints.borrow(lease.leaseId(), hours);
        try {
            return offline.keepBorrowed(read(response.body(), lease.leaseId()), jwks);
        } catch (RuntimeException e) {
            if (!isBorrowedHere(lease.leaseId())) releaseQuietly(lease.leaseId());
            throw e;
        }
    }

    /** True when {@code leaseId} is the seat kept in the offline store, which must not be released behind its back. */
    private boolean isBorrowedHere(String leaseId) {
        try {
            return offline.stored().borrowed().map(b -> b.seat().leaseId().equals(leaseId)).orElse(false);
        } catch (KeyrightException unreadable) {
            return false;
        }
    }

    /**
     * Returns the stored borrowed seat: released on the server (a lease already gone counts as returned), then
     * deleted from the store. A release that fails (no network) keeps the store: the seat is still borrowed.
     *
     * @return false when no seat was borrowed here
     */
    boolean giveBack() {
        Optional<BorrowedSeat> stored = offline.stored().borrowed().map(OfflineState.Borrowed::seat);
        if (stored.isEmpty()) return false;
        endpoints.release(stored.get().leaseId());
        offline.forgetBorrowed(stored.get().leaseId());
        return true;
    }

    private BorrowedSeat read(String body, String leaseId) {
        try {
            JsonObject json = JsonObject.parse(body);
            String answered = json.getString("leaseId");
            if (!answered.equals(leaseId)) {
                throw new LeaseVerificationException("The borrow of " + leaseId + " answered for lease " + answered, null);
            }
            return new BorrowedSeat(offline.product(), leaseId, json.getInstant("borrowedUntil"), json.getString("token"));
        } catch (IllegalArgumentException e) {
            throw new LeaseVerificationException("Unreadable borrow answer from the server: " + e.getMessage(), e);
        }
    }

    private void releaseQuietly(String leaseId) {
        try {
            endpoints.release(leaseId);
        } catch (KeyrightException e) {
            LOG.log(Level.FINE, "Could not release the borrowed lease; it stays taken until it expires", e);
        }
    }
}
