package dev.keyright.client.cli;

import dev.keyright.client.InstallBlockedException;
import dev.keyright.client.InvalidLicenseException;
import dev.keyright.client.InvalidRequestException;
import dev.keyright.client.KeyrightException;
import dev.keyright.client.LeaseExpiredException;
import dev.keyright.client.LeaseNotFoundException;
import dev.keyright.client.LeaseVerificationException;
import dev.keyright.client.LicenseSuspendedException;
import dev.keyright.client.SeatsExhaustedException;
import dev.keyright.client.TransientException;
import java.util.stream.Collectors;

/** What an expected failure means to a person, and the exit code it ends with. */
final class Failures {

    private Failures() {
    }

    static int exitCode(KeyrightException e) {
        if (e instanceof SeatsExhaustedException || e instanceof TransientException) return ExitCodes.NO_SEAT;
        if (e instanceof InvalidLicenseException || e instanceof LicenseSuspendedException) {
            return ExitCodes.LICENSE_REFUSED;
        }
        if (e instanceof InstallBlockedException) return ExitCodes.INSTALL_BLOCKED;
        if (e instanceof LeaseVerificationException) return ExitCodes.UNTRUSTED_ANSWER;
        if (e instanceof InvalidRequestException) return ExitCodes.REQUEST_REFUSED;
        return ExitCodes.FAILURE;
    }

    static String describe(KeyrightException e, String product) {
        if (e instanceof SeatsExhaustedException) return seatsInUse((SeatsExhaustedException) e) + ".";
        if (e instanceof TransientException) return "The license server is unavailable: " + e.getMessage();
        if (e instanceof InvalidLicenseException) {
            return "The license key was refused (unknown, or not a key for product '" + product + "').";
        }
        if (e instanceof LicenseSuspendedException) return "The license is suspended or past its end date.";
        if (e instanceof InstallBlockedException) return blocked((InstallBlockedException) e);
        if (e instanceof LeaseVerificationException) {
            return "The server's lease failed verification, so no seat is held: " + e.getMessage();
        }
        if (e instanceof LeaseExpiredException) return "That lease is no longer live.";
        if (e instanceof LeaseNotFoundException) return "There is no such lease for this license.";
        if (e instanceof InvalidRequestException) {
            InvalidRequestException refused = (InvalidRequestException) e;
            String fields = refused.errors().stream().map(f -> f.field() + ": " + f.message())
                    .collect(Collectors.joining("; "));
            return "The server refused the request: " + (fields.isEmpty() ? e.getMessage() : fields);
        }
        return "The license server refused: " + e.getMessage();
    }

    /** "An administrator blocked this install until ...; not acquiring again." */
    static String blocked(InstallBlockedException e) {
        return "An administrator blocked this install" + e.blockedUntil().map(until -> " until " + until).orElse("")
                + "; not acquiring a seat again.";
    }

    /** "All 25 seats are in use", with the real numbers when the server gave them. */
    static String seatsInUse(SeatsExhaustedException e) {
        if (e.maxSeats() < 0) return "All seats are in use";
        if (e.seatsInUse() > e.maxSeats()) {
            return e.seatsInUse() + " seats are in use, more than the license's " + e.maxSeats();
        }
        return "All " + e.maxSeats() + (e.maxSeats() == 1 ? " seat is" : " seats are") + " in use";
    }
}
