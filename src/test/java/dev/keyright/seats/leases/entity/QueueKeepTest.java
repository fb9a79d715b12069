package dev.keyright.seats.leases.entity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The queue's rule, {@code now <= lastSeenAt + keep}, at its boundaries, and the entry that follows it. */
class QueueKeepTest {

    private static final Instant SEEN = Instant.parse("2026-12-03T10:55:42Z");
    private static final Duration KEEP = Duration.ofSeconds(10);

    @Test
    void waitingUpToAndIncludingLastSeenPlusKeep() {
        assertTrue(QueueKeep.isWaiting(SEEN, SEEN, KEEP));
        assertTrue(QueueKeep.isWaiting(SEEN, SEEN.plus(KEEP), KEEP));
        assertFalse(QueueKeep.isWaiting(SEEN, SEEN.plus(KEEP).plusMillis(1), KEEP));
        assertFalse(QueueKeep.isWaiting(SEEN, SEEN.plus(KEEP).plusNanos(1), KEEP));
    }

    @Test
    void aPlaceSeenAgainKeepsItsTicketAndNeverMovesBackInTime() {
        QueueEntry entry = new QueueEntry("q_1", "lic_1", new Holder("inst-1", "ana", "ws-7"), 4, SEEN);
        assertTrue(entry.isWaitingAt(SEEN.plus(KEEP), KEEP));
        assertFalse(entry.isWaitingAt(SEEN.plus(KEEP).plusMillis(1), KEEP));
        assertEquals(SEEN, entry.joinedAt());
        QueueEntry.Place place = QueueEntry.Place.of(new Object[]{"q_1", "inst-1", "ana", "ws-7", 4L, SEEN.toEpochMilli()});
        assertFalse(place.isWaitingAt(SEEN.plus(KEEP).plusMillis(1), KEEP));
        QueueEntry.Place seen = place.seenAt(SEEN.plusSeconds(8));
        assertTrue(seen.isWaitingAt(SEEN.plusSeconds(18), KEEP), "seen again: the keep runs from then");
        assertEquals(SEEN.plusSeconds(8), seen.seenAt(SEEN.plusSeconds(1)).lastSeenAt(),
                "a late, older sighting does not shorten the keep");
        assertEquals(4, seen.ticket());
        assertEquals(new Holder("inst-1", "ana", "ws-7"), seen.holder());
        assertTrue(seen.isOf("inst-1"));
        assertFalse(seen.isOf("inst-2"));
    }
}
