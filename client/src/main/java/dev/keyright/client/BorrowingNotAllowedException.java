package dev.keyright.client;

/**
 * The license does not let a seat leave the network (403 borrowing-not-allowed: its {@code maxBorrowHours} is 0).
 * Final for this license: asking again changes nothing until an administrator allows borrowing.
 */
public class BorrowingNotAllowedException extends KeyrightException {

    private static final long serialVersionUID = 1L;

    public BorrowingNotAllowedException(String message, int status, String problemType) {
        super(message, status, problemType, null);
    }
}
