package dev.keyright.bench;

import java.util.List;

/**
 * What a scenario drives: the real server over HTTP ({@link HttpTarget}) or the raw JDBC floor
 * ({@link FloorTarget}). Scenarios are written once against this interface, so both sides run exactly
 * the same sequence of operations with the same thread count.
 */
interface SeatTarget extends AutoCloseable {

    /** "server" or "floor". */
    String name();

    /** One worker's handle: an HTTP client or a JDBC connection, used by one thread only. */
    Session open() throws Exception;

    /** Set-up, not measured: {@code count} licenses of {@code product-<i>}, each {@code seats} seats and the TTL given. */
    List<License> createLicenses(String product, int count, int seats, int ttlSeconds) throws Exception;

    /** Set-up, not measured: change a license's TTL (the admin PATCH on the server). */
    void changeTtl(License license, int ttlSeconds) throws Exception;

    @Override
    void close();

    /** A license as the benchmark knows it: the key for the server, its hash for the floor. */
    record License(String id, String product, String key, String keyHash, int seats) {
    }

    /** The answer to one call: an HTTP status (or its floor equivalent), the lease id of a grant, or a failure. */
    record Call(int status, String leaseId, String failure) {

        static Call of(int status) {
            return new Call(status, null, null);
        }

        static Call granted(int status, String leaseId) {
            return new Call(status, leaseId, null);
        }

        static Call failed(Throwable e) {
            String message = e.getMessage() == null ? "" : ": " + e.getMessage();
            if (message.length() > 120) {
                message = message.substring(0, 120) + "...";
            }
            return new Call(-1, null, e.getClass().getSimpleName() + message);
        }

        /** How an unexpected answer is counted: its status, or the failure's class. */
        String errorKey() {
            return failure != null ? failure : Integer.toString(status);
        }
    }

    /** One worker's connection to the target. Calls never throw: failures come back as {@link Call#failed}. */
    interface Session extends AutoCloseable {

        /** Acquire a seat for {@code clientInstanceId} (201 expected). */
        Call acquire(License license, String clientInstanceId);

        /** Heartbeat (200 expected). */
        Call renew(License license, String leaseId);

        /** Give the seat back (204 expected). */
        Call release(License license, String leaseId);

        /** The cheapest call (200 expected): GET /.well-known/jwks.json on the server, {@code SELECT 1} on the floor. */
        Call ping();

        @Override
        void close();
    }
}
