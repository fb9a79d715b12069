package dev.keyright.seats.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/** Races for the tests: requests released at one instant, each on its own thread, answers in request order. */
public final class Races {

    private Races() {
    }

    /** {@code clients} calls of {@code request} (with their index) started together; waits up to 60 s for each. */
    public static <T> List<T> atOnce(int clients, IntFunction<T> request) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<T>> replies = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                int n = i;
                replies.add(pool.submit(() -> {
                    start.await();
                    return request.apply(n);
                }));
            }
            start.countDown();
            List<T> all = new ArrayList<>();
            for (Future<T> reply : replies) {
                all.add(reply.get(60, TimeUnit.SECONDS));
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }
}
