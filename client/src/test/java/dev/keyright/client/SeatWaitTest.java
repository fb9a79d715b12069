package dev.keyright.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Waiting for a seat within a budget, on fake time and with no jitter (the pause is exactly what is asked). */
class SeatWaitTest {

    private static final Lease LEASE = new Lease("lease_1", "token", Instant.parse("2026-11-13T14:32:05Z"), 120, 40, 1, 1, 0);

    private final ManualTime time = new ManualTime();
    private final SeatWait wait = new SeatWait(time, time, new Jitter(() -> 0.0));

    private static SeatsExhaustedException full(Duration retryAfter) {
        return new SeatsExhaustedException("all seats in use", 1, 1, retryAfter);
    }

    private static TransientException unavailable(Duration retryAfter) {
        return new TransientException("service unavailable", 503, Problems.TYPE_PREFIX + "service-unavailable", retryAfter, null);
    }

    /** Throws the given refusals in turn, then grants the seat. */
    private static Supplier<Lease> refusing(RuntimeException... refusals) {
        Deque<RuntimeException> left = new ArrayDeque<>(List.of(refusals));
        return () -> {
            if (!left.isEmpty()) throw left.poll();
            return LEASE;
        };
    }

    @Test
    void aServerBrieflyUnavailableIsWaitedForWithinTheBudgetThenItsFailureThrown() {
        TransientException last = unavailable(Duration.ofSeconds(5));
        Supplier<Lease> down = refusing(unavailable(Duration.ofSeconds(5)), unavailable(Duration.ofSeconds(5)), last);

        assertSame(last, assertThrows(TransientException.class, () -> wait.acquire(Duration.ofSeconds(12), down, SeatWaitListener.silent())));
        assertEquals(List.of(Duration.ofSeconds(5), Duration.ofSeconds(5)), time.sleeps, "attempts at 0, 5 and 10 s; one at 15 s would be past 12 s");
    }

    @Test
    void aRetryAfterShorterThanHalfASecondIsStretchedToHalfASecond() {
        assertSame(LEASE, wait.acquire(Duration.ofSeconds(10), refusing(full(Duration.ZERO), unavailable(Duration.ZERO)),
                SeatWaitListener.silent()));
        assertEquals(List.of(Duration.ofMillis(500), Duration.ofMillis(500)), time.sleeps);
    }

    @Test
    void anAttemptThatFallsExactlyOnTheDeadlineIsStillMade() {
        assertSame(LEASE, wait.acquire(Duration.ofSeconds(5), refusing(full(Duration.ofSeconds(5))), SeatWaitListener.silent()));
        assertEquals(List.of(Duration.ofSeconds(5)), time.sleeps);
    }
}
