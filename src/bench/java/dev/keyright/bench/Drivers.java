package dev.keyright.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/** The two load shapes: closed loop (N threads, back to back) and open loop (a fixed schedule of calls). */
final class Drivers {

    /** A hard cap on the operations of one thread in one run, whatever the duration. */
    static final long MAX_OPS_PER_THREAD = 50_000_000L;
    /** How long an open-loop run may go on past its end to send calls that were scheduled before it. */
    static final long DRAIN_NANOS = TimeUnit.SECONDS.toNanos(5);

    private Drivers() {
    }

    /** One closed-loop operation: returns normally; records its own latencies and errors into {@code w}. */
    interface Step {
        void run(SeatTarget.Session session, int thread, long iteration, Recording.Worker w);
    }

    /** One open-loop call, scheduled at {@code scheduledNanos} (slot {@code slot} of its stream). */
    interface ScheduledStep {
        void run(SeatTarget.Session session, long slot, long scheduledNanos, Recording.Worker w);
    }

    /**
     * An open-loop stream: {@code ratePerSecond} calls a second, sent by {@code threads} threads; calls that
     * were never sent are recorded into operation {@code latencyOp} with the delay they had reached.
     */
    record Stream(String name, double ratePerSecond, int threads, int latencyOp, ScheduledStep step) {
    }

    /** What a run did, beside its recording. */
    record Run(Recording recording, double measuredSeconds, long scheduled, long missed) {
    }

    /**
     * {@code threads} threads call {@code step} back to back for {@code warmup + measure} seconds; only what
     * starts in the last {@code measure} seconds is recorded.
     */
    static Run closedLoop(SeatTarget target, Recording recording, int threads, int warmupSeconds, int measureSeconds, Step step)
            throws Exception {
        long t0 = System.nanoTime();
        long start = t0 + TimeUnit.SECONDS.toNanos(warmupSeconds);
        long end = start + TimeUnit.SECONDS.toNanos(measureSeconds);
        List<Thread> workers = new ArrayList<>();
        CountDownLatch ready = new CountDownLatch(threads);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<SeatTarget.Session> sessions = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            sessions.add(target.open());
        }
        for (int i = 0; i < threads; i++) {
            int thread = i;
            SeatTarget.Session session = sessions.get(i);
            Thread worker = new Thread(() -> {
                Recording.Worker w = recording.worker();
                ready.countDown();
                try {
                    for (long n = 0; n < MAX_OPS_PER_THREAD; n++) {
                        long now = System.nanoTime();
                        if (now >= end) {
                            break;
                        }
                        w.measuring = now >= start;
                        step.run(session, thread, n, w);
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "bench-" + target.name() + "-" + i);
            worker.setDaemon(true);
            workers.add(worker);
            worker.start();
        }
        ready.await();
        long deadline = end + TimeUnit.SECONDS.toNanos(60);
        for (Thread worker : workers) {
            worker.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        }
        sessions.forEach(SeatTarget.Session::close);
        if (failure.get() != null) {
            throw new IllegalStateException("a worker failed", failure.get());
        }
        return new Run(recording, measureSeconds, 0, 0);
    }

    /**
     * Open loop: each stream's calls are scheduled at a fixed rate from t0; a worker takes the next slot,
     * waits for its time if it is early, and records the latency from the <em>scheduled</em> time, so a
     * server that falls behind shows its full queueing delay (no coordinated omission). Only slots
     * scheduled after the warm-up are recorded. Slots scheduled before the end that could not be sent
     * within {@link #DRAIN_NANOS} after it are counted as missed and recorded with the delay they had reached
     * (so the percentiles are then lower bounds). Throughput counts calls that completed inside the window.
     */
    static Run openLoop(SeatTarget target, Recording recording, int warmupSeconds, int measureSeconds, List<Stream> streams)
            throws Exception {
        long t0 = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
        long start = t0 + TimeUnit.SECONDS.toNanos(warmupSeconds);
        long end = start + TimeUnit.SECONDS.toNanos(measureSeconds);
        List<Thread> workers = new ArrayList<>();
        List<SeatTarget.Session> sessions = new ArrayList<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong sentInWindow = new AtomicLong();
        long scheduledInWindow = 0;
        List<Runnable> unsentAccounting = new ArrayList<>();
        for (Stream stream : streams) {
            if (stream.ratePerSecond() <= 0) {
                continue;
            }
            double interval = 1e9 / stream.ratePerSecond();
            long firstInWindow = (long) Math.ceil((start - t0) / interval);
            long endSlot = (long) Math.ceil((end - t0) / interval);
            scheduledInWindow += endSlot - firstInWindow;
            AtomicLong next = new AtomicLong();
            AtomicLong firstUnsent = new AtomicLong(Long.MAX_VALUE);
            unsentAccounting.add(() -> {
                // Slots are taken in order, so every slot from the first one a worker gave up on was never sent.
                // Each is recorded with the delay it had reached when the run stopped: a lower bound of its latency.
                long stoppedAt = System.nanoTime();
                Recording.Worker w = recording.worker();
                w.measuring = true;
                for (long slot = Math.max(firstInWindow, Math.min(firstUnsent.get(), next.get())); slot < endSlot; slot++) {
                    w.record(stream.latencyOp(), stoppedAt - (t0 + (long) (slot * interval)));
                }
            });
            for (int i = 0; i < stream.threads(); i++) {
                SeatTarget.Session session = target.open();
                sessions.add(session);
                Thread worker = new Thread(() -> {
                    Recording.Worker w = recording.worker();
                    w.windowStart = start;
                    w.windowEnd = end;
                    try {
                        while (true) {
                            long slot = next.getAndIncrement();
                            long scheduled = t0 + (long) (slot * interval);
                            if (scheduled >= end || slot >= MAX_OPS_PER_THREAD * stream.threads()) {
                                break;
                            }
                            long now;
                            while ((now = System.nanoTime()) < scheduled) {
                                LockSupport.parkNanos(scheduled - now);
                            }
                            if (now > end + DRAIN_NANOS) {
                                firstUnsent.accumulateAndGet(slot, Math::min);
                                break;
                            }
                            w.measuring = scheduled >= start;
                            if (w.measuring) {
                                sentInWindow.incrementAndGet();
                            }
                            stream.step().run(session, slot, scheduled, w);
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }, "bench-" + target.name() + "-" + stream.name() + "-" + i);
                worker.setDaemon(true);
                workers.add(worker);
                worker.start();
            }
        }
        long deadline = end + DRAIN_NANOS + TimeUnit.SECONDS.toNanos(60);
        for (Thread worker : workers) {
            worker.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        }
        sessions.forEach(SeatTarget.Session::close);
        if (failure.get() != null) {
            throw new IllegalStateException("a worker failed", failure.get());
        }
        unsentAccounting.forEach(Runnable::run);
        return new Run(recording, measureSeconds, scheduledInWindow, Math.max(0, scheduledInWindow - sentInWindow.get()));
    }
}
