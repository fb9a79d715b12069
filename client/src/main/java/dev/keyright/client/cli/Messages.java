package dev.keyright.client.cli;

import org.jose4j.json.JsonUtil;
import dev.keyright.client.KeyrightException;
import dev.keyright.client.Lease;
import dev.keyright.client.SeatState;
import dev.keyright.client.SeatsExhaustedException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** Everything the CLI tells the person on stderr: plain sentences, or one JSON object a line with {@code --json}. */
final class Messages {

    static final Duration SAY_AGAIN_AFTER = Duration.ofSeconds(30);

    private final PrintStream err;
    private final boolean json;
    private String lastPlace;
    private Duration lastSaid = Duration.ZERO;

    Messages(PrintStream err, boolean json) {
        this.err = err;
        this.json = json;
    }

    /**
     * Progress of a wait, after each refusal: a JSON {@code queued} event each time, a sentence when the
     * place in line changes or at least {@link #SAY_AGAIN_AFTER} after the last one.
     */
    synchronized void waiting(SeatsExhaustedException refusal, Duration waited) {
        if (json) {
            say(null, event("queued", "position", refusal.queuePosition().isPresent()
                    ? refusal.queuePosition().getAsInt() : null, "waitedSeconds", waited.toSeconds()));
            return;
        }
        String place = WaitProgress.describe(refusal, Duration.ZERO);
        if (place.equals(lastPlace) && waited.minus(lastSaid).compareTo(SAY_AGAIN_AFTER) < 0) return;
        lastPlace = place;
        lastSaid = waited;
        say(WaitProgress.describe(refusal, waited), null);
    }

    /** {@code run --json}: the seat is held. */
    void acquired(Lease lease) {
        tell(event("acquired", "leaseId", lease.leaseId(), "expiresAt", lease.expiresAt().toString()));
    }

    /** {@code run --json}: the seat was renewed (or re-acquired, with a new lease id). */
    void renewed(Lease lease) {
        tell(event("renewed", "leaseId", lease.leaseId(), "expiresAt", lease.expiresAt().toString()));
    }

    /** {@code run --json}: the seat was given back. */
    void released(String leaseId) {
        tell(event("released", "leaseId", leaseId));
    }

    void gaveUp(SeatsExhaustedException refusal, Duration budget) {
        say(Failures.seatsInUse(refusal) + ": no seat freed up within " + WaitBudget.describe(budget) + ".",
                event("no-seat", "seatsInUse", refusal.seatsInUse(), "maxSeats", refusal.maxSeats(),
                        "exitCode", ExitCodes.NO_SEAT));
    }

    void seatStateChanged(SeatState previous, SeatState current, KeyrightException cause, boolean killOnLoss) {
        String sentence;
        if (current == SeatState.UNCERTAIN) {
            sentence = "cannot renew the seat (" + reason(cause) + "); still holding it, retrying";
        } else if (current == SeatState.HELD) {
            sentence = "the seat is renewed again";
        } else if (cause instanceof dev.keyright.client.InstallBlockedException) {
            sentence = "the seat was lost: " + Failures.blocked((dev.keyright.client.InstallBlockedException) cause)
                    + (killOnLoss ? " Stopping the command." : " The command keeps running without a seat.");
        } else {
            sentence = "the seat was lost (" + reason(cause) + ")"
                    + (killOnLoss ? "; stopping the command" : "; the command keeps running without a seat");
        }
        say(sentence, event("seat-" + current.name().toLowerCase(), "previous", previous.name().toLowerCase(),
                "reason", cause == null ? null : reason(cause), "type", cause == null ? null : cause.problemType().orElse(null),
                "blockedUntil", cause instanceof dev.keyright.client.InstallBlockedException blocked
                        ? blocked.blockedUntil().map(String::valueOf).orElse(null) : null));
    }

    void failed(KeyrightException e, String product) {
        int code = Failures.exitCode(e);
        say(Failures.describe(e, product), event("error", "exitCode", code, "type", e.problemType().orElse(null),
                "message", Failures.describe(e, product)));
    }

    void error(String sentence) {
        say(sentence, event("error", "message", sentence));
    }

    /** An event for programs only: nothing is said to a person. */
    private void tell(Map<String, Object> event) {
        if (json) say(null, event);
    }

    private void say(String sentence, Map<String, Object> event) {
        err.println(json ? JsonUtil.toJson(event) : "keyright: " + sentence);
        err.flush();
    }

    private static String reason(KeyrightException cause) {
        if (cause == null) return "no reason given";
        Throwable root = cause.getCause() instanceof KeyrightException ? cause.getCause() : cause;
        return cause.getMessage() + (root != cause ? ": " + root.getMessage() : "");
    }

    private static Map<String, Object> event(String name, Object... members) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("event", name);
        for (int i = 0; i < members.length; i += 2) {
            if (members[i + 1] != null) event.put((String) members[i], members[i + 1]);
        }
        return event;
    }
}
