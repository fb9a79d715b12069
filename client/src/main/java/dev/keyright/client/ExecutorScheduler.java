package dev.keyright.client;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The real {@link Scheduler}: daemon threads, so a forgotten keep-alive never keeps the JVM alive.
 * Two threads, so the deadline check still fires while a renew call hangs.
 */
final class ExecutorScheduler implements Scheduler, AutoCloseable {

    private final ScheduledExecutorService executor;

    ExecutorScheduler() {
        ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(2, task -> {
            Thread thread = new Thread(task, "keyright-keep-alive");
            thread.setDaemon(true);
            return thread;
        });
        pool.setRemoveOnCancelPolicy(true);
        this.executor = pool;
    }

    @Override
    public Scheduled schedule(Runnable task, Duration delay) {
        ScheduledFuture<?> future = executor.schedule(task, Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS);
        return () -> future.cancel(false);
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
