package dev.keyright.seats.web;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** One watch for every body read: a read is interrupted once its whole-body deadline has passed, never before. */
class BodyDeadlinesTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final AtomicLong nanos = new AtomicLong(1_000);
    private final BodyDeadlines deadlines = new BodyDeadlines(nanos::get);
    private final ExecutorService readers = Executors.newSingleThreadExecutor();

    @AfterEach
    void stopReaders() {
        readers.shutdownNow();
    }

    @Test
    void aBodyThatArrivesBeforeItsDeadlineIsReadWhateverTheWatchSaw() throws Exception {
        PipedOutputStream client = new PipedOutputStream();
        InputStream body = new PipedInputStream(client);
        Future<byte[]> read = readers.submit(() -> deadlines.read(request(body, 10), 100, TIMEOUT));
        client.write(new byte[] {1, 2, 3});
        awaitWatched(1);

        nanos.addAndGet(TIMEOUT.toNanos() - 1);
        deadlines.expireDue();
        client.write(new byte[] {4, 5, 6, 7, 8, 9, 10});
        client.close();

        assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, read.get(10, TimeUnit.SECONDS));
        assertEquals(0, deadlines.watched(), "a read that ended is no longer watched");
    }

    @Test
    void aBodyStillIncompleteAtItsDeadlineIsMissedAndLeavesNoInterruptBehind() throws Exception {
        PipedOutputStream client = new PipedOutputStream();
        InputStream body = new PipedInputStream(client);
        AtomicBoolean interruptLeft = new AtomicBoolean(true);
        Future<byte[]> read = readers.submit(() -> {
            try {
                return deadlines.read(request(body, 10), 100, TIMEOUT);
            } finally {
                interruptLeft.set(Thread.currentThread().isInterrupted());
            }
        });
        client.write(new byte[] {1, 2, 3}); // three bytes of ten, then nothing
        awaitWatched(1);

        nanos.addAndGet(TIMEOUT.toNanos());
        deadlines.expireDue();

        ExecutionException failure = assertThrows(ExecutionException.class, () -> read.get(10, TimeUnit.SECONDS));
        assertInstanceOf(BodyDeadlines.Missed.class, failure.getCause());
        assertFalse(interruptLeft.get(), "the worker thread goes back to its pool without an interrupt");
        assertEquals(0, deadlines.watched());
    }

    @Test
    void theWatchInterruptsOnlyTheReadsPastTheirOwnDeadline() throws Exception {
        PipedOutputStream early = new PipedOutputStream();
        PipedOutputStream late = new PipedOutputStream();
        InputStream earlyBody = new PipedInputStream(early);
        InputStream lateBody = new PipedInputStream(late);
        ExecutorService second = Executors.newSingleThreadExecutor();
        try {
            Future<byte[]> first = readers.submit(() -> deadlines.read(request(earlyBody, 4), 100, TIMEOUT));
            awaitWatched(1);
            nanos.addAndGet(Duration.ofSeconds(3).toNanos());
            Future<byte[]> then = second.submit(() -> deadlines.read(request(lateBody, 4), 100, TIMEOUT));
            awaitWatched(2);

            nanos.addAndGet(Duration.ofSeconds(2).toNanos()); // the first's deadline, 3 s before the second's
            deadlines.expireDue();

            ExecutionException failure = assertThrows(ExecutionException.class, () -> first.get(10, TimeUnit.SECONDS));
            assertInstanceOf(BodyDeadlines.Missed.class, failure.getCause());
            late.write(new byte[] {1, 2, 3, 4});
            late.close();
            assertArrayEquals(new byte[] {1, 2, 3, 4}, then.get(10, TimeUnit.SECONDS));
        } finally {
            second.shutdownNow();
        }
    }

    private void awaitWatched(int reads) throws InterruptedException {
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (deadlines.watched() < reads) {
            assertTrue(System.nanoTime() < giveUp, "the reads never started");
            Thread.onSpinWait();
        }
    }

    private static HttpServletRequest request(InputStream body, long contentLength) {
        ServletInputStream stream = new ServletInputStream() {
            @Override
            public int read() throws IOException {
                return body.read();
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return body.read(b, off, len);
            }

            @Override
            public boolean isFinished() {
                return false;
            }

            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void setReadListener(ReadListener listener) {
                throw new UnsupportedOperationException();
            }
        };
        return (HttpServletRequest) Proxy.newProxyInstance(HttpServletRequest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getInputStream" -> stream;
                    case "getContentLengthLong" -> contentLength;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
