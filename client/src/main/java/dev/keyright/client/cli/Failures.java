package dev.keyright.client.cli;

import dev.keyright.client.ActivationEndedException;
import dev.keyright.client.ActivationNotFoundException;
import dev.keyright.client.ActivationsExhaustedException;
import dev.keyright.client.BorrowingNotAllowedException;
import dev.keyright.client.InstallBlockedException;
import dev.keyright.client.InvalidLicenseException;
import dev.keyright.client.InvalidRequestException;
import dev.keyright.client.KeyrightException;
import dev.keyright.client.LeaseExpiredException;
import dev.keyright.client.LeaseNotFoundException;
import dev.keyright.client.LeaseVerificationException;
import dev.keyright.client.LicenseSuspendedException;
import dev.keyright.client.OfflineLicenseException;
import dev.keyright.client.OfflineLicenseNotFoundException;
import dev.keyright.client.SeatsExhaustedException;
import dev.keyright.client.TransientException;
import dev.keyright.client.WrongLicenseModelException;
import java.util.stream.Collectors;

/** What an expected failure means to a person, and the exit code it ends with. */
final class Failures {

    private Failures() {
    }

    static int exitCode(KeyrightException e) {
        if (e instanceof SeatsExhaustedException || e instanceof TransientException
                || e instanceof ActivationsExhaustedException) {
            return ExitCodes.NO_SEAT;
        }
        if (e instanceof InvalidLicenseException || e instanceof LicenseSuspendedException
                || e instanceof BorrowingNotAllowedException || e instanceof WrongLicenseModelException) {
            return ExitCodes.LICENSE_REFUSED;
        }
        if (e instanceof OfflineLicenseNotFoundException) return ExitCodes.NOT_HELD;
        if (e instanceof OfflineLicenseException) return ExitCodes.OFFLINE_REFUSED;
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
            return "The server's answer failed verification, so nothing is held: " + e.getMessage();
        }
        if (e instanceof ActivationsExhaustedException) return activationsInUse((ActivationsExhaustedException) e);
        if (e instanceof BorrowingNotAllowedException) return "The license does not allow borrowing seats for offline use.";
        if (e instanceof WrongLicenseModelException) return wrongModel((WrongLicenseModelException) e);
        if (e instanceof ActivationEndedException) return "The activation was deactivated or revoked.";
        if (e instanceof ActivationNotFoundException) return "There is no such activation for this license.";
        if (e instanceof OfflineLicenseException) return sentence(e.getMessage());
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

    /** "All 10 activations of the license are in use: ...", with the real numbers when the server gave them. */
    private static String activationsInUse(ActivationsExhaustedException e) {
        String all = e.maxActivations() < 0 ? "All activations" : e.maxActivations() == 1 ? "The one activation"
                : "All " + e.maxActivations() + " activations";
        return all + " of the license " + (e.maxActivations() == 1 ? "is" : "are")
                + " in use: deactivate a machine first ('keyright-client deactivate' on it).";
    }

    static String sentence(String message) {
        return message.endsWith(".") ? message : message + ".";
    }

    private static String wrongModel(WrongLicenseModelException e) {
        String model = e.model().orElse("");
        if (model.equals("node-locked")) {
            return "The license is node-locked: activate this machine ('keyright-client activate') instead of taking seats.";
        }
        if (model.equals("floating")) {
            return "The license is for floating seats, not activations: take a seat ('run', 'acquire' or 'borrow') instead.";
        }
        return "The license's model does not allow this: " + e.getMessage();
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
