package dev.keyright.seats.database;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The reaper's and the purges' batching: bounded batches until one comes back short, never unbounded. */
class BatchesTest {

    /** A table of {@code rows} rows that one batch deletes at most {@code size} of; records each batch's size. */
    private static java.util.function.IntSupplier table(int rows, int size, List<Integer> batches) {
        AtomicInteger left = new AtomicInteger(rows);
        return () -> {
            int done = Math.min(size, left.get());
            left.addAndGet(-done);
            batches.add(done);
            return done;
        };
    }

    @Test
    void drainsInFullBatchesUntilOneComesBackShort() {
        List<Integer> batches = new ArrayList<>();
        assertEquals(1_234, Batches.drain(500, table(1_234, 500, batches)));
        assertEquals(List.of(500, 500, 234), batches);
    }

    @Test
    void anExactMultipleEndsWithOneEmptyBatch() {
        List<Integer> batches = new ArrayList<>();
        assertEquals(1_000, Batches.drain(500, table(1_000, 500, batches)));
        assertEquals(List.of(500, 500, 0), batches);
    }

    @Test
    void aSweepStopsAfterAThousandBatchesWhateverIsLeft() {
        List<Integer> batches = new ArrayList<>();
        assertEquals(1_000 * 10, Batches.drain(10, table(1_000_000, 10, batches)));
        assertEquals(1_000, batches.size(), "a sweep is bounded; the next sweep goes on");
    }

    @Test
    void nothingToDoIsOneEmptyBatch() {
        List<Integer> batches = new ArrayList<>();
        assertEquals(0, Batches.drain(500, table(0, 500, batches)));
        assertEquals(List.of(0), batches);
    }
}
