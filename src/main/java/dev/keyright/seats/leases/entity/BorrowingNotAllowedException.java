package dev.keyright.seats.leases.entity;

import dev.keyright.seats.problems.BusinessException;

/** The license lends no seats ({@code maxBorrowHours} 0): a seat may not leave the network. */
public class BorrowingNotAllowedException extends BusinessException {

    public BorrowingNotAllowedException() {
        super("borrowing-not-allowed", "This license does not allow borrowing a seat for offline use (maxBorrowHours is 0).");
    }
}
