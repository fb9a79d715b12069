package dev.keyright.seats.throttling.control;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Failed authentication attempts (license keys, admin credentials) per client address in a sliding window. Past {@code slowAfter} failures an
 * address is slowed down; at {@code refuseAt} it is refused until its oldest counted failure leaves the
 * window. Bounded in memory: at most {@code maxAddresses} addresses are remembered (the stalest go first).
 */
public final class FailureLedger {

    private final int slowAfter;
    private final int refuseAt;
    private final Duration window;
    private final int maxAddresses;
    private final Map<String, Deque<Instant>> failures;

    public FailureLedger(int slowAfter, int refuseAt, Duration window, int maxAddresses) {
        this.slowAfter = slowAfter;
        this.refuseAt = refuseAt;
        this.window = window;
        this.maxAddresses = maxAddresses;
        this.failures = new LinkedHashMap<>(16, 0.75f, true);
    }

    public synchronized void recordFailure(String address, Instant now) {
        Deque<Instant> times = failures.computeIfAbsent(address, a -> new ArrayDeque<>());
        expire(times, now);
        if (times.size() < refuseAt) {
            times.addLast(now);
        }
        if (failures.size() > maxAddresses) {
            Iterator<String> stalest = failures.keySet().iterator();
            stalest.next();
            stalest.remove();
        }
    }

    public synchronized Verdict verdict(String address, Instant now) {
        Deque<Instant> times = failures.get(address);
        if (times == null) {
            return Verdict.ALLOW;
        }
        expire(times, now);
        if (times.isEmpty()) {
            failures.remove(address);
            return Verdict.ALLOW;
        }
        if (times.size() >= refuseAt) {
            long seconds = Math.max(1, Duration.between(now, times.peekFirst().plus(window)).toSeconds() + 1);
            return new Verdict(Verdict.Kind.REFUSE, Duration.ZERO, (int) Math.min(seconds, Integer.MAX_VALUE));
        }
        if (times.size() > slowAfter) {
            long millis = Math.min(1_000, 100L << Math.min(10, times.size() - slowAfter - 1));
            return new Verdict(Verdict.Kind.SLOW, Duration.ofMillis(millis), 0);
        }
        return Verdict.ALLOW;
    }

    private void expire(Deque<Instant> times, Instant now) {
        Instant horizon = now.minus(window);
        while (!times.isEmpty() && !times.peekFirst().isAfter(horizon)) {
            times.removeFirst();
        }
    }

    /** Go ahead, go ahead after a delay, or stop and retry after some seconds. */
    public record Verdict(Kind kind, Duration delay, int retryAfterSeconds) {
        public enum Kind { ALLOW, SLOW, REFUSE }

        public static final Verdict ALLOW = new Verdict(Kind.ALLOW, Duration.ZERO, 0);
    }
}
