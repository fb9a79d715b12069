package dev.keyright.client;

import java.time.Instant;

/**
 * A floating seat taken off the network until {@code borrowedUntil}, as kept in the offline store. The server
 * counts it as a held seat until then; this machine may use it without reaching the server until then too.
 *
 * @param product       the product it is a seat of
 * @param leaseId       the lease, returned early with {@link KeyrightClient#returnBorrowed()}
 * @param borrowedUntil the signed end of the borrow ({@code exp} of the token, equal to the server's
 *                      {@code borrowedUntil}): licensed up to and including this instant on the wall clock
 * @param token         the lease token with claim {@code bor: true} (compact JWS, {@code typ: lease+jwt})
 */
public record BorrowedSeat(String product, String leaseId, Instant borrowedUntil, String token) {

    @Override
    public String toString() {
        return "BorrowedSeat[" + product + ", " + leaseId + ", until " + borrowedUntil + "]";
    }
}
