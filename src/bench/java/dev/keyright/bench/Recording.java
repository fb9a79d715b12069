package dev.keyright.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;

/**
 * Latencies (HdrHistogram, microseconds, 3 significant digits) and errors of one run of one scenario on
 * one target. Each worker thread records into its own histograms; they are merged once the run is over.
 */
final class Recording {

    static final long MAX_MICROS = 300_000_000L;

    private final List<String> ops;
    private final ConcurrentLinkedQueue<Worker> workers = new ConcurrentLinkedQueue<>();
    private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    private final LongAdder completed = new LongAdder();

    Recording(List<String> ops) {
        this.ops = List.copyOf(ops);
    }

    Worker worker() {
        Worker w = new Worker();
        workers.add(w);
        return w;
    }

    /** Merged histograms by operation name, in the order the operations were declared. */
    Map<String, Histogram> histograms() {
        Map<String, Histogram> merged = new LinkedHashMap<>();
        for (int i = 0; i < ops.size(); i++) {
            Histogram h = newHistogram();
            for (Worker w : workers) {
                h.add(w.histograms[i]);
            }
            merged.put(ops.get(i), h);
        }
        return merged;
    }

    /** Errors by "operation status" (or "operation failure"), counted in the measured window only. */
    Map<String, Long> errors() {
        Map<String, Long> out = new TreeMap<>();
        errors.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    long errorCount() {
        return errors.values().stream().mapToLong(LongAdder::sum).sum();
    }

    /** Operations completed successfully in the measured window. */
    long completed() {
        return completed.sum();
    }

    static Histogram newHistogram() {
        return new Histogram(MAX_MICROS, 3);
    }

    /** One thread's recorder. {@code measuring} is false during the warm-up: nothing is recorded then. */
    final class Worker {
        private final Histogram[] histograms = new Histogram[ops.size()];
        boolean measuring;
        long windowStart = Long.MAX_VALUE;
        long windowEnd = Long.MIN_VALUE;

        private Worker() {
            for (int i = 0; i < histograms.length; i++) {
                histograms[i] = newHistogram();
            }
        }

        void record(int op, long nanos) {
            if (measuring) {
                histograms[op].recordValue(Math.min(MAX_MICROS, Math.max(0, nanos / 1000)));
            }
        }

        void error(int op, SeatTarget.Call call) {
            if (measuring) {
                errors.computeIfAbsent(ops.get(op) + " " + call.errorKey(), k -> new LongAdder()).increment();
            }
        }

        void completed() {
            if (measuring) {
                completed.increment();
            }
        }

        /** Open loop: an operation counts for throughput when it <em>completes</em> inside the measured window. */
        void completedAt(long nanos) {
            if (nanos >= windowStart && nanos < windowEnd) {
                completed.increment();
            }
        }
    }
}
