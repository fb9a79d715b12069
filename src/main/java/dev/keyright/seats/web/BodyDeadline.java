package dev.keyright.seats.web;

import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Reads a request body with a deadline for the whole body, not per read (a byte every second never
 * resets it): when the deadline passes, the reading thread is interrupted, which ends a blocked read at
 * once, and the caller answers 408. The interrupt can only reach the thread while it is still reading:
 * the alarm and the end of the read exclude each other, and a flag set at the last moment is cleared.
 */
final class BodyDeadline {

    /** The body did not arrive in time. */
    static final class Missed extends IOException {
        private static final long serialVersionUID = 1L;

        Missed() {
            super("request body not received in time", null);
        }
    }

    private final Thread reader = Thread.currentThread();
    private boolean reading = true;
    private boolean expired;

    private BodyDeadline() {
    }

    /** At most {@code max + 1} bytes of the body, or {@link Missed} when the deadline passed first. */
    static byte[] read(HttpServletRequest request, int max, Duration timeout, ScheduledExecutorService alarms) throws IOException {
        BodyDeadline deadline = new BodyDeadline();
        ScheduledFuture<?> alarm = alarms.schedule(deadline::expire, timeout.toMillis(), TimeUnit.MILLISECONDS);
        byte[] body = null;
        IOException failure = null;
        try {
            body = request.getInputStream().readNBytes(max + 1);
        } catch (IOException e) {
            failure = e;
        } finally {
            alarm.cancel(false);
            deadline.stop();
        }
        long expected = request.getContentLengthLong();
        if (deadline.expired && (body == null || (expected >= 0 && body.length < expected))) {
            throw new Missed();
        }
        if (failure != null) {
            throw failure;
        }
        return body;
    }

    private synchronized void expire() {
        if (reading) {
            expired = true;
            reader.interrupt();
        }
    }

    private void stop() {
        synchronized (this) {
            reading = false;
        }
        Thread.interrupted(); // an alarm that fired as the read ended leaves no interrupt behind
    }
}
