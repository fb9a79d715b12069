package dev.keyright.client.cli;

import dev.keyright.client.SeatsExhaustedException;
import java.time.Duration;

/** How a wait for a seat is shown: {@code 3rd in line, waiting 0:42}. */
final class WaitProgress {

    private WaitProgress() {
    }

    /** {@code 3rd in line, waiting 0:42}; from a server that does not queue, the pool's numbers instead of a place. */
    static String describe(SeatsExhaustedException refusal, Duration waited) {
        String where = refusal.queuePosition().isPresent()
                ? ordinal(refusal.queuePosition().getAsInt()) + " in line"
                : Failures.seatsInUse(refusal);
        return where + ", waiting " + elapsed(waited);
    }

    /** 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 22nd, 101st, 111th. */
    static String ordinal(int n) {
        int lastTwo = n % 100;
        if (lastTwo >= 11 && lastTwo <= 13) return n + "th";
        switch (n % 10) {
            case 1: return n + "st";
            case 2: return n + "nd";
            case 3: return n + "rd";
            default: return n + "th";
        }
    }

    /** {@code m:ss}, or {@code h:mm:ss} from an hour on. */
    static String elapsed(Duration waited) {
        long seconds = Math.max(0, waited.toSeconds());
        long hours = seconds / 3600;
        long minutes = seconds % 3600 / 60;
        return hours > 0 ? String.format("%d:%02d:%02d", hours, minutes, seconds % 60)
                : String.format("%d:%02d", minutes, seconds % 60);
    }
}
