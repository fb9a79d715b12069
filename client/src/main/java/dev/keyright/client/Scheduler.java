package dev.keyright.client;

import java.time.Duration;

/**
 * Runs the keep-alive's delayed tasks. {@link ExecutorScheduler} is the real one; tests use a
 * manual scheduler that runs tasks when the test advances its fake time.
 */
public interface Scheduler {

    /** Runs {@code task} once, after {@code delay}. */
    Scheduled schedule(Runnable task, Duration delay);

    /** A pending task. */
    @FunctionalInterface
    interface Scheduled {
        /** Cancels the task if it has not started; a running task is not interrupted. */
        void cancel();
    }
}
