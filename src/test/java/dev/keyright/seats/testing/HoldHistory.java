package dev.keyright.seats.testing;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What clients observed, Jepsen style: each hold interval from the acquire response to the release
 * request (or the observed loss). If the server never oversold, at no instant do more of these
 * intervals overlap than there are seats, because each sits inside the server's own live interval.
 */
public final class HoldHistory {

    private final List<long[]> holds = new ArrayList<>();

    /** Records a hold observed from {@code startNanos} to {@code endNanos} (System.nanoTime). */
    public synchronized void hold(long startNanos, long endNanos) {
        holds.add(new long[] {startNanos, endNanos});
    }

    public synchronized int size() {
        return holds.size();
    }

    /** The most holds that overlapped at any instant. */
    public synchronized int maxOverlap() {
        List<long[]> points = new ArrayList<>();
        for (long[] hold : holds) {
            points.add(new long[] {hold[0], +1});
            points.add(new long[] {hold[1], -1});
        }
        points.sort(Comparator.<long[]>comparingLong(p -> p[0]).thenComparingLong(p -> p[1]));
        int current = 0;
        int max = 0;
        for (long[] point : points) {
            current += (int) point[1];
            max = Math.max(max, current);
        }
        return max;
    }
}
