package dev.keyright.seats.web;

import dev.keyright.seats.problems.ProblemWriter;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One body received with the servlet container's non-blocking reads, under a deadline for the whole
 * body (not per read: a byte every second never resets it). Exactly one of these happens, once: the body
 * arrives (and the request goes on in an ASYNC dispatch), it grows past
 * the limit (413), the deadline passes (408), or the client goes away.
 */
final class BodyReception implements ReadListener, AsyncListener {

    private final HttpServletRequest request;
    private final HttpServletResponse response;
    private final AsyncContext async;
    private final ServletInputStream in;
    private final ByteArrayOutputStream received = new ByteArrayOutputStream();
    private final byte[] chunk = new byte[4096];
    private final AtomicBoolean ended = new AtomicBoolean();
    private final long expected;

    private BodyReception(HttpServletRequest request, HttpServletResponse response, AsyncContext async) throws IOException {
        this.request = request;
        this.response = response;
        this.async = async;
        this.in = request.getInputStream();
        this.expected = request.getContentLengthLong();
    }

    /** Receives the rest of the body without holding the calling thread, which returns to the container. */
    static void start(HttpServletRequest request, HttpServletResponse response, long timeoutMillis) throws IOException {
        AsyncContext async = request.startAsync(request, response);
        async.setTimeout(timeoutMillis);
        BodyReception reception = new BodyReception(request, response, async);
        async.addListener(reception);
        reception.in.setReadListener(reception);
    }

    /**
     * Reads what is there. A body whose declared length has arrived, or whose end was read, is complete
     * here and now: the container's {@link #onAllDataRead} is not waited for, since Payara does not always
     * call it once the end has been read in this method (a request then waited for its deadline).
     */
    @Override
    public synchronized void onDataAvailable() throws IOException {
        while (!ended.get() && in.isReady()) {
            int count = in.read(chunk);
            if (count < 0) {
                arrived();
                return;
            }
            received.write(chunk, 0, count);
            if (received.size() > RequestBodies.MAX_BYTES) {
                refuse(413);
                return;
            }
            if (expected >= 0 && received.size() >= expected) {
                arrived();
                return;
            }
        }
    }

    @Override
    public synchronized void onAllDataRead() {
        arrived();
    }

    private void arrived() {
        if (!ended.compareAndSet(false, true)) {
            return;
        }
        request.setAttribute(RequestBodies.ATTRIBUTE, received.toByteArray());
        async.dispatch();
    }

    @Override
    public void onError(Throwable failure) {
        if (ended.compareAndSet(false, true)) {
            async.complete(); // the client went away mid-body: nobody to answer
        }
    }

    /** The deadline: what has arrived by now is read once more (a body whose last notice got lost is on time), else 408. */
    @Override
    public void onTimeout(AsyncEvent event) throws IOException {
        synchronized (this) {
            if (!ended.get()) {
                onDataAvailable();
            }
        }
        refuse(408);
    }

    @Override
    public void onError(AsyncEvent event) {
        onError(event.getThrowable());
    }

    @Override
    public void onComplete(AsyncEvent event) {
        // nothing held
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
        // not restarted
    }

    private void refuse(int status) throws IOException {
        if (ended.compareAndSet(false, true)) {
            try {
                if (!response.isCommitted()) {
                    response.setHeader("Connection", "close");
                    ProblemWriter.write(response, status);
                }
            } finally {
                async.complete();
            }
        }
    }
}
