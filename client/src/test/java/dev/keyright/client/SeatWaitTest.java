package dev.keyright.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** Waiting for a seat within a budget, on fake time and with no jitter (the pause is exactly what is asked). */
class SeatWaitTest {

    private static final Lease LEASE = new Lease("lease_1", "token", Instant.parse("2026-11-13T14:32:05Z"), 120, 40, 1, 1, 0);

    private final ManualTime time = new ManualTime();
    private final SeatWait wait = new SeatWait(time, time, new Jitter(() -> 0.0));
    private final List<String> told = new ArrayList<>();
    private final SeatWaitListener listener = (refusal, waited) ->
            told.add(refusal.queuePosition().orElse(0) + "@" + waited.toSeconds() + "s");

    private static SeatsExhaustedException full(Duration retryAfter) {
        return new SeatsExhaustedException("all seats in use", 1, 1, retryAfter);
    }

    private static SeatsExhaustedException queued(int position) {
        return new SeatsExhaustedException("all seats in use", 1, 1, Duration.ZERO, OptionalInt.of(position));
    }

    private static TransientException unavailable(Duration retryAfter) {
        return new TransientException("service unavailable", 503, Problems.TYPE_PREFIX + "service-unavailable", retryAfter, null);
    }

    /**
     * A queue that throws the given refusals in turn, then grants the seat. A refusal with a place in
     * the queue comes at the end of its hold, as from a server that queues.
     */
    private class ScriptedQueue implements SeatQueue {
        final Deque<RuntimeException> left;
        final List<Duration> holds = new ArrayList<>();
        int leaves;

        ScriptedQueue(RuntimeException... refusals) {
            left = new ArrayDeque<>(List.of(refusals));
        }

        @Override
        public Lease acquire(Duration hold) {
            holds.add(hold);
            if (left.isEmpty()) return LEASE;
            RuntimeException refusal = left.poll();
            if (refusal instanceof SeatsExhaustedException && ((SeatsExhaustedException) refusal).queuePosition().isPresent()) {
                time.stall(hold);
            }
            throw refusal;
        }

        @Override
        public void leave() {
            leaves++;
        }
    }

    @Test
    void aBudgetShorterThanRetryAfterIsWaitedWholeThenTriedOnceMoreAtItsEnd() {
        SeatsExhaustedException last = full(Duration.ofSeconds(40));
        ScriptedQueue queue = new ScriptedQueue(full(Duration.ofSeconds(40)), last);
        long start = time.nanos();

        assertSame(last, assertThrows(SeatsExhaustedException.class, () -> wait.acquire(Duration.ofSeconds(30), queue, listener)));

        assertEquals(Duration.ofSeconds(30), Duration.ofNanos(time.nanos() - start), "the whole budget, not less");
        assertEquals(List.of(Duration.ofSeconds(30)), time.sleeps, "Retry-After 40 s is cut to the 30 s left");
        assertEquals(List.of("0@0s", "0@30s"), told, "the listener hears of each refusal");
        assertEquals(1, queue.leaves, "leaves the queue when the budget is spent");
    }

    @Test
    void aRefusalWithAPlaceInTheQueueIsResentAtOnceForTheBudgetLeft() {
        ScriptedQueue queue = new ScriptedQueue(queued(3), queued(2));

        assertSame(LEASE, wait.acquire(Duration.ofSeconds(150), queue, listener));

        assertEquals(List.of(Duration.ofSeconds(1), Duration.ofSeconds(20), Duration.ofSeconds(20)),
                queue.holds, "1 s first, to learn the place at once, then holds of the default 20 s");
        assertEquals(List.of(), time.sleeps, "no pause between holds");
        assertEquals(List.of("3@1s", "2@21s"), told);
        assertEquals(0, queue.leaves);
    }

    @Test
    void aLongBudgetIsServedByManyHolds() {
        RuntimeException[] refusals = new RuntimeException[119];
        java.util.Arrays.fill(refusals, queued(1));
        ScriptedQueue queue = new ScriptedQueue(refusals);

        assertSame(LEASE, wait.acquire(Duration.ofHours(2), queue, listener));

        assertEquals(120, queue.holds.size());
        assertEquals("1@" + (1 + 118 * 20) + "s", told.get(told.size() - 1));
        assertEquals(List.of(), time.sleeps);
    }

    @Test
    void theHoldIsTheBudgetLeftRoundedUpAndAtMostTheConfiguredLongest() {
        ScriptedQueue queue = new ScriptedQueue(queued(1), queued(1));
        SeatWait shortHolds = new SeatWait(time, time, new Jitter(() -> 0.0), Duration.ofSeconds(5));
        assertSame(LEASE, shortHolds.acquire(Duration.ofMillis(7500), queue, listener));
        assertEquals(List.of(Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(2)), queue.holds,
                "1 s, then at most the configured 5 s, then the 1.5 s left rounded up");

        ScriptedQueue tiny = new ScriptedQueue();
        assertSame(LEASE, wait.acquire(Duration.ofMillis(300), tiny, listener));
        assertEquals(List.of(Duration.ofSeconds(1)), tiny.holds);
    }

    @Test
    void aHeldRefusalThatCameBackAtOnceIsNotResentInAHotLoop() {
        SeatQueue unheld = new ScriptedQueue() {
            int calls;

            @Override
            public Lease acquire(Duration hold) {
                if (calls++ < 2) throw queued(1); // no time passed: a server that did not hold
                return LEASE;
            }
        };
        assertSame(LEASE, wait.acquire(Duration.ofSeconds(10), unheld, listener));
        assertEquals(List.of(Duration.ofMillis(500), Duration.ofMillis(500)), time.sleeps);
    }

    @Test
    void aServerBrieflyUnavailableIsWaitedForUntilTheBudgetEndsThenItsFailureThrown() {
        TransientException last = unavailable(Duration.ofSeconds(5));
        ScriptedQueue down = new ScriptedQueue(unavailable(Duration.ofSeconds(5)), unavailable(Duration.ofSeconds(5)),
                unavailable(Duration.ofSeconds(5)), last);

        assertSame(last, assertThrows(TransientException.class, () -> wait.acquire(Duration.ofSeconds(12), down, listener)));
        assertEquals(List.of(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(2)), time.sleeps,
                "attempts at 0, 5, 10 and, cut short, 12 s");
        assertEquals(1, down.leaves);
    }

    @Test
    void aRetryAfterShorterThanHalfASecondIsStretchedToHalfASecond() {
        assertSame(LEASE, wait.acquire(Duration.ofSeconds(10), new ScriptedQueue(full(Duration.ZERO), unavailable(Duration.ZERO)),
                listener));
        assertEquals(List.of(Duration.ofMillis(500), Duration.ofMillis(500)), time.sleeps);
    }

    @Test
    void anAttemptThatFallsExactlyOnTheDeadlineIsStillMade() {
        assertSame(LEASE, wait.acquire(Duration.ofSeconds(5), new ScriptedQueue(full(Duration.ofSeconds(5))), listener));
        assertEquals(List.of(Duration.ofSeconds(5)), time.sleeps);
    }

    @Test
    void aZeroBudgetIsOnePlainAcquire() {
        ScriptedQueue queue = new ScriptedQueue(full(Duration.ofSeconds(5)));
        assertThrows(SeatsExhaustedException.class, () -> wait.acquire(Duration.ZERO, queue, listener));
        assertEquals(List.of(Duration.ZERO), queue.holds, "no Prefer: wait");
        assertEquals(0, queue.leaves, "never joined the queue");
    }

    @Test
    void theLongestHoldIsBetweenOneAndSixtySecondsBothIncluded() {
        new SeatWait(time, time, new Jitter(() -> 0.0), Duration.ofSeconds(1));
        new SeatWait(time, time, new Jitter(() -> 0.0), Duration.ofSeconds(60));
        assertThrows(IllegalArgumentException.class, () -> new SeatWait(time, time, new Jitter(() -> 0.0), Duration.ofMillis(999)));
        assertThrows(IllegalArgumentException.class,
                () -> new SeatWait(time, time, new Jitter(() -> 0.0), Duration.ofSeconds(60).plusMillis(1)));
    }

    @Test
    void noBudgetAsksOnceAndIsNeverHeld() {
        ScriptedQueue granted = new ScriptedQueue();
        assertSame(LEASE, wait.acquire(Duration.ZERO, granted, listener));
        assertEquals(List.of(Duration.ZERO), granted.holds, "no Prefer: wait at all, not the first one-second hold");

        SeatsExhaustedException refusal = full(Duration.ofSeconds(40));
        ScriptedQueue full = new ScriptedQueue(refusal);
        assertSame(refusal, assertThrows(SeatsExhaustedException.class, () -> wait.acquire(Duration.ofSeconds(-1), full, listener)));
        assertEquals(List.of(Duration.ZERO), full.holds);
        assertEquals(List.of(), time.sleeps, "nothing waited");
        assertEquals(List.of(), told, "a refusal without a wait is the caller's to show");
    }

    @Test
    void aHeldRefusalThatTookHalfASecondIsAskedAgainAtOnceOneThatTookLessWaitsHalfASecond() {
        for (Duration took : List.of(Duration.ofMillis(500), Duration.ofMillis(499))) {
            time.sleeps.clear();
            SeatQueue queue = new SeatQueue() {
                boolean refused;

                @Override
                public Lease acquire(Duration hold) {
                    if (refused) return LEASE;
                    refused = true;
                    time.stall(took);
                    throw queued(1);
                }

                @Override
                public void leave() {
                }
            };
            assertSame(LEASE, wait.acquire(Duration.ofSeconds(30), queue, listener));
            assertEquals(took.compareTo(SeatWait.SHORTEST_PAUSE) < 0 ? List.of(SeatWait.SHORTEST_PAUSE) : List.of(), time.sleeps,
                    "after a refusal that came back in " + took.toMillis() + " ms");
        }
    }
}
