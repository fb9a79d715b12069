package dev.keyright.seats.leases.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LicenseGateTest {

    @Test
    void oneCheckoutOfALicenseAtATimeAndEveryOneGetsItsTurn() throws Exception {
        LicenseGate gate = new LicenseGate(Duration.ofSeconds(30));
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger mostInside = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Optional<Integer>>> runs = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                int n = i;
                runs.add(pool.submit(() -> {
                    start.await();
                    return gate.through("lic_one", () -> {
                        mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                        Thread.yield();
                        inside.decrementAndGet();
                        return n;
                    });
                }));
            }
            start.countDown();
            int done = 0;
            for (Future<Optional<Integer>> run : runs) {
                assertTrue(run.get(30, TimeUnit.SECONDS).isPresent(), "every checkout had its turn");
                done++;
            }
            assertEquals(64, done);
            assertEquals(1, mostInside.get(), "never two checkouts of one license at once from one node");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aCheckoutThatDoesNotGetItsTurnInTimeIsToldSoAndRunsNothing() throws Exception {
        LicenseGate gate = new LicenseGate(Duration.ofMillis(50));
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch leave = new CountDownLatch(1);
        Thread holder = new Thread(() -> gate.through("lic_busy", () -> {
            entered.countDown();
            try {
                leave.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return 1;
        }));
        holder.start();
        try {
            assertTrue(entered.await(10, TimeUnit.SECONDS));
            AtomicInteger ran = new AtomicInteger();
            assertEquals(Optional.empty(), gate.through("lic_busy", ran::incrementAndGet), "busy: no turn");
            assertEquals(0, ran.get(), "and nothing ran");
            assertEquals(Optional.of("other"), findFreeLicenseBeside(gate, "lic_busy"), "another license is not held up");
        } finally {
            leave.countDown();
            holder.join(10_000);
        }
        assertEquals(Optional.of(2), gate.through("lic_busy", () -> 2), "the turn comes once the holder is done");
    }

    /** A license id on another stripe than the busy one goes through at once. */
    private static Optional<String> findFreeLicenseBeside(LicenseGate gate, String busy) {
        for (int i = 0; ; i++) {
            String id = "lic_" + i;
            if (Math.floorMod(id.hashCode(), LicenseGate.STRIPES) != Math.floorMod(busy.hashCode(), LicenseGate.STRIPES)) {
                return gate.through(id, () -> "other");
            }
        }
    }
}
