package dev.keyright.seats.monitoring.control;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * How long this node took to answer, per route ({@code POST /v1/seats/acquire}), as cumulative histogram
 * buckets in the Prometheus manner. A held acquire ({@code Prefer: wait}) counts its wait.
 */
@ApplicationScoped
public class RequestDurations {

    /** Upper bounds in seconds, the last one being +Inf. */
    public static final double[] BOUNDS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, Double.POSITIVE_INFINITY};

    private final Map<String, Histogram> routes = new ConcurrentHashMap<>();

    public void record(String route, long nanos) {
        routes.computeIfAbsent(route, r -> new Histogram()).record(nanos);
    }

    /** Every route's histogram, by route name. */
    public Map<String, Histogram> byRoute() {
        return new TreeMap<>(routes);
    }

    /** One route: how many answers fell at or below each bound (cumulative), their total time and count. */
    public static final class Histogram {
        private final LongAdder[] buckets = new LongAdder[BOUNDS.length];
        private final LongAdder count = new LongAdder();
        private final LongAdder totalNanos = new LongAdder();

        Histogram() {
            for (int i = 0; i < buckets.length; i++) {
                buckets[i] = new LongAdder();
            }
        }

        void record(long nanos) {
            double seconds = nanos / 1e9;
            for (int i = 0; i < BOUNDS.length; i++) {
                if (seconds <= BOUNDS[i]) {
                    buckets[i].increment();
                    break;
                }
            }
            count.increment();
            totalNanos.add(nanos);
        }

        /** The cumulative count at each bound of {@link #BOUNDS}. */
        public long[] cumulative() {
            long[] cumulative = new long[BOUNDS.length];
            long running = 0;
            for (int i = 0; i < BOUNDS.length; i++) {
                running += buckets[i].sum();
                cumulative[i] = running;
            }
            return cumulative;
        }

        public long count() {
            return count.sum();
        }

        public double totalSeconds() {
            return totalNanos.sum() / 1e9;
        }
    }
}
