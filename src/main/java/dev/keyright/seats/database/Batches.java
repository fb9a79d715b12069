package dev.keyright.seats.database;

import java.util.function.IntSupplier;

/** Bounded batches, one transaction each, until a batch comes back short (at most 1,000 rounds a sweep). */
public final class Batches {

    private Batches() {
    }

    /**
     * Deletes up to {@code limit} rows created before {@code before}: the ids from the named query
     * {@code findOlder} (parameter {@code before}, epoch milliseconds), then the named {@code deleteByIds}.
     */
    public static int deleteOlder(jakarta.persistence.EntityManager em, String findOlder, String deleteByIds,
                                  java.time.Instant before, int limit) {
        java.util.List<String> ids = em.createNamedQuery(findOlder, String.class)
                .setParameter("before", before.toEpochMilli())
                .setMaxResults(limit)
                .getResultList();
        if (ids.isEmpty()) {
            return 0;
        }
        return em.createNamedQuery(deleteByIds).setParameter("ids", ids).executeUpdate();
    }

    public static int drain(int batchSize, IntSupplier batch) {
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
