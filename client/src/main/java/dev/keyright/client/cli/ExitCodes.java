package dev.keyright.client.cli;

/** The CLI's exit codes (BSD sysexits where one fits). {@code run} otherwise exits with the command's own code. */
final class ExitCodes {

    static final int OK = 0;
    static final int FAILURE = 1;
    static final int USAGE = 2;
    /**
     * Nothing held: {@code release} of a lease no longer held (released, expired or revoked before; the seat is
     * free), {@code return} with no seat borrowed here, {@code deactivate} on a machine not activated, {@code status}
     * with neither.
     */
    static final int NOT_HELD = 3;
    /** The server refused the request's content (invalid-request). */
    static final int REQUEST_REFUSED = 65;
    /** No seat could be had within the wait budget, or the server could not be reached. */
    static final int NO_SEAT = 69;
    /** {@code run --kill-on-loss}: the seat was lost while the command ran, and the command was stopped. */
    static final int SEAT_LOST = 75;
    /** The server's answer could not be trusted: a lease token failed verification, or was unreadable. */
    static final int UNTRUSTED_ANSWER = 76;
    /** The license key was refused, or the license is suspended. */
    static final int LICENSE_REFUSED = 77;
    /** An administrator revoked this install's seat and blocked the install (install-blocked): not acquiring again. */
    static final int INSTALL_BLOCKED = 78;
    /**
     * An offline license on this machine failed its offline check: a borrowed seat or an activation certificate
     * past its end, a clock set back, a store that does not verify, or another machine's certificate.
     */
    static final int OFFLINE_REFUSED = 79;
    static final int CANNOT_EXECUTE = 126;
    static final int COMMAND_NOT_FOUND = 127;

    private ExitCodes() {
    }
}
