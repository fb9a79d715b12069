package dev.keyright.seats.usage.control;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.keyright.seats.leases.entity.LeaseEvent;
import dev.keyright.seats.usage.control.UsageReport.Hold;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UsageReportTest {

    private static final Instant T0 = Instant.parse("2026-11-13T00:00:00Z");
    private static final Duration HOUR = Duration.ofHours(1);

    private static Instant at(int minutes) {
        return T0.plus(Duration.ofMinutes(minutes));
    }

    @Test
    void aLeaseSpanningBucketsCountsInEachOfThem() {
        List<UsageReport.Bucket> buckets = UsageReport.compute(T0, at(240), HOUR,
                List.of(new Hold(at(30), at(150))), List.of());
        assertEquals(List.of(1, 1, 1, 0), buckets.stream().map(UsageReport.Bucket::peakInUse).toList());
    }

    @Test
    void peakIsTheMostHeldAtOnceNotTheNumberOfHolders() {
        List<UsageReport.Bucket> buckets = UsageReport.compute(T0, at(60), HOUR, List.of(
                new Hold(at(0), at(10)), new Hold(at(20), at(30)), new Hold(at(25), at(40)), new Hold(at(26), at(27))), List.of());
        assertEquals(3, buckets.get(0).peakInUse());
    }

    @Test
    void aSeatHandedOverAtTheSameInstantIsOneSeat() {
        List<UsageReport.Bucket> buckets = UsageReport.compute(T0, at(60), HOUR,
                List.of(new Hold(at(0), at(30)), new Hold(at(30), at(60))), List.of());
        assertEquals(1, buckets.get(0).peakInUse());
    }

    @Test
    void aSeatGrantedAndEndedInTheSameMillisecondWasStillHeld() {
        // two installs granted at one instant, one released in that millisecond, the other reported on in it
        List<UsageReport.Bucket> buckets = UsageReport.compute(T0, at(120), HOUR,
                List.of(new Hold(at(59), at(59)), new Hold(at(59), at(59))), List.of());
        assertEquals(List.of(2, 0), buckets.stream().map(UsageReport.Bucket::peakInUse).toList());
    }

    @Test
    void leasesHeldBeforeTheWindowCountFromItsStart() {
        List<UsageReport.Bucket> buckets = UsageReport.compute(at(60), at(180), HOUR,
                List.of(new Hold(at(-500), at(90)), new Hold(at(-10), at(61))), List.of());
        assertEquals(List.of(2, 0), buckets.stream().map(UsageReport.Bucket::peakInUse).toList());
    }

    @Test
    void eventsAreCountedInTheirBucket() {
        List<UsageReport.Bucket> buckets = UsageReport.compute(T0, at(120), HOUR, List.of(), List.of(
                UsageReport.Event.of(LeaseEvent.Kind.GRANT, at(0)), UsageReport.Event.of(LeaseEvent.Kind.GRANT, at(59)),
                UsageReport.Event.of(LeaseEvent.Kind.DENY, at(60)), UsageReport.Event.of(LeaseEvent.Kind.EXPIRE, at(119)),
                UsageReport.Event.of(LeaseEvent.Kind.DENY, at(120))));
        assertEquals(2, buckets.get(0).count(LeaseEvent.Kind.GRANT));
        assertEquals(0, buckets.get(0).count(LeaseEvent.Kind.DENY));
        assertEquals(1, buckets.get(1).count(LeaseEvent.Kind.DENY), "the end of the window is exclusive");
        assertEquals(1, buckets.get(1).count(LeaseEvent.Kind.EXPIRE));
    }

    @Test
    void denialsAreCountedByReasonAndOverdraftGrantsApart() {
        List<UsageReport.Bucket> buckets = UsageReport.compute(T0, at(120), HOUR, List.of(), List.of(
                new UsageReport.Event(LeaseEvent.Kind.DENY, at(1), "user-limit-reached", false),
                new UsageReport.Event(LeaseEvent.Kind.DENY, at(2), "user-limit-reached", false),
                new UsageReport.Event(LeaseEvent.Kind.DENY, at(3), "seats-exhausted", false),
                new UsageReport.Event(LeaseEvent.Kind.GRANT, at(4), null, true),
                new UsageReport.Event(LeaseEvent.Kind.GRANT, at(5), null, false),
                new UsageReport.Event(LeaseEvent.Kind.GRANT, at(61), null, true)));
        assertEquals(Map.of("user-limit-reached", 2, "seats-exhausted", 1), buckets.get(0).denialsByReason());
        assertEquals(1, buckets.get(0).overdraftCheckouts());
        assertEquals(1, buckets.get(1).overdraftCheckouts());
        assertEquals(Map.of(), buckets.get(1).denialsByReason());
    }

    @Test
    void theLastBucketIsCutAtTheEndOfTheWindow() {
        List<UsageReport.Bucket> buckets = UsageReport.compute(T0, at(90), HOUR, List.of(), List.of());
        assertEquals(2, buckets.size());
        assertEquals(at(90), buckets.get(1).end());
    }
}
