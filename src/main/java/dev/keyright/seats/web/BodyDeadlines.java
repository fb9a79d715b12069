package dev.keyright.seats.web;

import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Reads request bodies with a deadline for the whole body, not per read (a byte every second never resets
 * it): when the deadline passes, the reading thread is interrupted, which ends a blocked read at once, and
 * the caller answers 408. One watch serves every read: a read registers its deadline, and {@link #expireDue},
 * which the container runs every {@link #TICK}, interrupts the reads whose deadline has passed (so a deadline
 * is kept to within a tick). A scheduled task per body cost about 12 % of an acquire's server CPU: the
 * container captures its context each time one is scheduled.
 *
 * <p>The interrupt can only reach a thread while it is still reading: the alarm and the end of the read
 * exclude each other, and a flag set at the last moment is cleared.
 */
final class BodyDeadlines {

    /** How often the watch looks for reads past their deadline. */
    static final Duration TICK = Duration.ofMillis(100);

    /** The body did not arrive in time. */
    static final class Missed extends IOException {
        private static final long serialVersionUID = 1L;

        Missed() {
            super("request body not received in time", null);
        }
    }

    private final Set<Read> reads = ConcurrentHashMap.newKeySet();
    private final LongSupplier nanoTime;

    /** @param nanoTime a monotonic clock in nanoseconds ({@code System::nanoTime}) */
    BodyDeadlines(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    /** At most {@code max + 1} bytes of the body, or {@link Missed} when the deadline passed first. */
    byte[] read(HttpServletRequest request, int max, Duration timeout) throws IOException {
        Read read = new Read(Thread.currentThread(), nanoTime.getAsLong() + timeout.toNanos());
        reads.add(read);
        byte[] body = null;
        IOException failure = null;
        try {
            body = request.getInputStream().readNBytes(max + 1);
        } catch (IOException e) {
            failure = e;
        } finally {
            reads.remove(read);
            read.stop();
        }
        long expected = request.getContentLengthLong();
        if (read.expired && (body == null || (expected >= 0 && body.length < expected))) {
            throw new Missed();
        }
        if (failure != null) {
            throw failure;
        }
        return body;
    }

    /** Interrupts every read whose deadline has passed; the container runs this every {@link #TICK}. */
    void expireDue() {
        long now = nanoTime.getAsLong();
        for (Read read : reads) {
            if (now - read.deadline >= 0) {
                read.expire();
            }
        }
    }

    /** How many reads are under watch now. */
    int watched() {
        return reads.size();
    }

    private static final class Read {
        private final Thread reader;
        private final long deadline;
        private boolean reading = true;
        private volatile boolean expired;

        Read(Thread reader, long deadline) {
            this.reader = reader;
            this.deadline = deadline;
        }

        synchronized void expire() {
            if (reading) {
                expired = true;
                reader.interrupt();
            }
        }

        void stop() {
            synchronized (this) {
                reading = false;
            }
            Thread.interrupted(); // an alarm that fired as the read ended leaves no interrupt behind
        }
    }
}
