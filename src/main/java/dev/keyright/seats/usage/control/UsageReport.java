package dev.keyright.seats.usage.control;

import dev.keyright.seats.leases.entity.LeaseEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Usage per time bucket from the history: peak concurrent seats (from hold intervals, so a lease that
 * spans buckets counts in each), and how many acquisitions, denials, expiries, releases and revocations.
 */
public final class UsageReport {

    private UsageReport() {
    }

    /** A seat held from {@code start} (inclusive) to {@code end} (exclusive). */
    public record Hold(Instant start, Instant end) {
    }

    /** Something that happened to a seat: its kind, when, why (a denial's reason) and whether it was an overdraft grant. */
    public record Event(LeaseEvent.Kind kind, Instant at, String reason, boolean overdraft) {
        public static Event of(LeaseEvent.Kind kind, Instant at) {
            return new Event(kind, at, null, false);
        }
    }

    /**
     * One bucket: the peak of seats held at once, the events by kind, the denials by reason (a problem type such
     * as {@code seats-exhausted}, {@code user-limit-reached}) and the grants made out of the overdraft.
     */
    public record Bucket(Instant start, Instant end, int peakInUse, Map<LeaseEvent.Kind, Integer> counts,
                         Map<String, Integer> denialsByReason, int overdraftCheckouts) {
        public int count(LeaseEvent.Kind kind) {
            return counts.getOrDefault(kind, 0);
        }
    }

    public static List<Bucket> compute(Instant from, Instant to, Duration width, List<Hold> holds,
                                       List<Event> events) {
        List<long[]> points = new ArrayList<>(holds.size() * 2);
        for (Hold hold : holds) {
            // a seat granted was held at least at the millisecond it was granted, even if released (or reported on)
            // in that same millisecond
            long start = hold.start().toEpochMilli();
            points.add(new long[] {start, +1});
            points.add(new long[] {Math.max(hold.end().toEpochMilli(), start + 1), -1});
        }
        // At the same instant an end comes before a start: a seat handed over is not two seats.
        points.sort(Comparator.<long[]>comparingLong(p -> p[0]).thenComparingLong(p -> p[1]));
        List<Bucket> buckets = new ArrayList<>();
        int next = 0;
        int current = 0;
        for (Instant start = from; start.isBefore(to); start = start.plus(width)) {
            Instant end = start.plus(width).isAfter(to) ? to : start.plus(width);
            while (next < points.size() && points.get(next)[0] <= start.toEpochMilli()) {
                current += (int) points.get(next++)[1];
            }
            int peak = current;
            while (next < points.size() && points.get(next)[0] < end.toEpochMilli()) {
                current += (int) points.get(next++)[1];
                peak = Math.max(peak, current);
            }
            buckets.add(bucket(start, end, peak, events));
        }
        return buckets;
    }

    private static Bucket bucket(Instant start, Instant end, int peak, List<Event> events) {
        Map<LeaseEvent.Kind, Integer> counts = new EnumMap<>(LeaseEvent.Kind.class);
        Map<String, Integer> denials = new java.util.TreeMap<>();
        int overdraft = 0;
        for (Event event : events) {
            if (!event.at().isBefore(start) && event.at().isBefore(end)) {
                counts.merge(event.kind(), 1, Integer::sum);
                if (event.kind() == LeaseEvent.Kind.DENY) {
                    denials.merge(event.reason() == null ? "seats-exhausted" : event.reason(), 1, Integer::sum);
                }
                if (event.kind() == LeaseEvent.Kind.GRANT && event.overdraft()) {
                    overdraft++;
                }
            }
        }
        return new Bucket(start, end, peak, counts, denials, overdraft);
    }
}
