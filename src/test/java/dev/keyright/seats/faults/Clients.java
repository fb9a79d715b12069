package dev.keyright.seats.faults;

import dev.keyright.seats.testing.Api;
import dev.keyright.seats.testing.HoldHistory;
import jakarta.json.JsonObject;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Seat clients for fault tests: each talks to the nodes in turn, fails over when one does not answer,
 * and records what it observed in a {@link HoldHistory}.
 */
final class Clients {

    final List<Api> nodes;
    final String product;
    final String key;
    final HoldHistory history = new HoldHistory();
    final Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
    final AtomicInteger connectionFailures = new AtomicInteger();
    final AtomicInteger unavailableWithoutRetryAfter = new AtomicInteger();
    final AtomicLong lastSuccessNanos = new AtomicLong();

    Clients(List<Api> nodes, String product, String key) {
        this.nodes = nodes;
        this.product = product;
        this.key = key;
    }

    /** Sends to node {@code preferred}, or the next that answers; null when none answered. */
    Api.Reply send(int preferred, java.util.function.Function<Api, Api.Reply> call) {
        for (int i = 0; i < nodes.size(); i++) {
            Api node = nodes.get((preferred + i) % nodes.size());
            try {
                Api.Reply reply = call.apply(node);
                statuses.computeIfAbsent(reply.status(), s -> new AtomicInteger()).incrementAndGet();
                if (reply.status() == 503 && reply.header("Retry-After") == null) {
                    unavailableWithoutRetryAfter.incrementAndGet();
                }
                return reply;
            } catch (UncheckedIOException | IllegalStateException down) {
                connectionFailures.incrementAndGet();
            }
        }
        return null;
    }

    int count(int status) {
        AtomicInteger n = statuses.get(status);
        return n == null ? 0 : n.get();
    }

    /** Until the deadline: acquire, hold a little while renewing once, release; back off when full. */
    void churn(String install, long deadlineNanos) {
        int preferred = ThreadLocalRandom.current().nextInt(nodes.size());
        while (System.nanoTime() < deadlineNanos) {
            Api.Reply acquired = send(preferred++, api -> api.acquire(product, key, install));
            if (acquired == null || acquired.status() != 201 && acquired.status() != 200) {
                LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(5_000_000, 50_000_000));
                continue;
            }
            long start = System.nanoTime();
            lastSuccessNanos.set(start);
            String leaseId = acquired.json().getString("leaseId");
            LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(10_000_000, 120_000_000));
            Api.Reply renewed = send(preferred++, api -> api.renew(key, leaseId));
            boolean lost = renewed != null && renewed.status() == 410;
            long end = System.nanoTime();
            history.hold(start, end);
            if (!lost) {
                send(preferred++, api -> api.release(key, leaseId));
            }
        }
    }

    /**
     * Starts {@code installs} churning clients ({@link #churn}) on {@code pool} until the deadline and returns
     * once they have made ten holds (failing if they have not within 8 s): the load is running.
     */
    List<java.util.concurrent.Future<?>> startChurning(java.util.concurrent.ExecutorService pool, int installs, long deadlineNanos)
            throws InterruptedException {
        List<java.util.concurrent.Future<?>> churning = new java.util.ArrayList<>();
        for (int i = 0; i < installs; i++) {
            String install = "churn-" + i;
            churning.add(pool.submit(() -> churn(install, deadlineNanos)));
        }
        long loadSeen = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(8);
        while (history.size() < 10) {
            if (System.nanoTime() > loadSeen) {
                throw new AssertionError("the load did not start: " + statuses);
            }
            java.util.concurrent.TimeUnit.MILLISECONDS.sleep(20);
        }
        return churning;
    }

    static String leaseId(Api.Reply reply) {
        JsonObject json = reply.json();
        return json.getString("leaseId");
    }
}
