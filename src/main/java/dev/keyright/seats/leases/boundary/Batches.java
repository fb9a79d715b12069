package dev.keyright.seats.leases.boundary;

import java.util.function.IntSupplier;

/** Bounded batches, one transaction each, until a batch comes back short (at most 1,000 rounds a sweep). */
final class Batches {

    private Batches() {
    }

    static int drain(int batchSize, IntSupplier batch) {
        int total = 0;
        for (int round = 0; round < 1_000; round++) {
            int done = batch.getAsInt();
            total += done;
            if (done < batchSize) {
                break;
            }
        }
        return total;
    }
}
