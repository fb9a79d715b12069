package dev.keyright.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Fake time for tests: a {@link Ticker}, a {@link Scheduler} whose tasks run only when the test
 * calls {@link #advance}, and a {@link Sleeper} that moves time on instead of sleeping.
 */
final class ManualTime implements Ticker, Scheduler, Sleeper {

    private long now = 1_000_000_000L;
    private long sequence;
    private final List<Task> tasks = new ArrayList<>();
    final List<Duration> scheduledDelays = Collections.synchronizedList(new ArrayList<>());
    final List<Duration> sleeps = Collections.synchronizedList(new ArrayList<>());
    /** Cancelling stops nothing: as on a real executor when the task has already started as it is cancelled. */
    volatile boolean cancelsComeTooLate;

    private final class Task {
        final long due;
        final long order = sequence++;
        final Runnable body;
        boolean cancelled;

        Task(long due, Runnable body) {
            this.due = due;
            this.body = body;
        }
    }

    @Override
    public synchronized long nanos() {
        return now;
    }

    @Override
    public synchronized Scheduled schedule(Runnable body, Duration delay) {
        scheduledDelays.add(delay);
        Task task = new Task(now + Math.max(0, delay.toNanos()), body);
        tasks.add(task);
        return () -> {
            synchronized (ManualTime.this) {
                if (!cancelsComeTooLate) task.cancelled = true;
            }
        };
    }

    @Override
    public synchronized void sleep(Duration duration) {
        sleeps.add(duration);
        now += duration.toNanos();
    }

    /** Moves time on by {@code duration}, running each task that falls due, in order. */
    void advance(Duration duration) {
        long target;
        synchronized (this) {
            target = now + duration.toNanos();
        }
        while (true) {
            Task next;
            synchronized (this) {
                next = tasks.stream().filter(t -> !t.cancelled && t.due <= target)
                        .min((a, b) -> a.due != b.due ? Long.compare(a.due, b.due) : Long.compare(a.order, b.order))
                        .orElse(null);
                if (next == null) {
                    now = Math.max(now, target);
                    return;
                }
                tasks.remove(next);
                now = Math.max(now, next.due);
            }
            next.body.run();
        }
    }

    /** Time passes and no task runs (a frozen process: SIGSTOP, a paused VM); {@link #advance} then runs the overdue ones in order. */
    synchronized void stall(Duration duration) {
        now += duration.toNanos();
    }

    synchronized long pendingTasks() {
        return tasks.stream().filter(t -> !t.cancelled).count();
    }
}
