package dev.keyright.seats.web;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The one cache of a request's body: read once by {@link RequestBodyFilter}, at most {@value #MAX_BYTES}
 * bytes, kept as a request attribute for the filters after it and handed on as a re-readable request.
 */
public final class RequestBodies {

    public static final int MAX_BYTES = 16 * 1024;
    private static final String ATTRIBUTE = RequestBodies.class.getName() + ".body";

    private RequestBodies() {
    }

    /** The body read for this request; empty when it had none. */
    public static Optional<byte[]> of(ServletRequest request) {
        return Optional.ofNullable((byte[]) request.getAttribute(ATTRIBUTE));
    }

    /** The body as text: the server reads bodies in UTF-8 only (a body declaring another charset is refused). */
    public static String text(ServletRequest request) {
        return of(request).map(bytes -> new String(bytes, StandardCharsets.UTF_8)).orElse("");
    }

    static boolean hasBody(HttpServletRequest request) {
        return request.getContentLengthLong() > 0 || request.getHeader("Transfer-Encoding") != null;
    }

    /**
     * The request with this body, remembered for later filters. Like a container's own request, it hands
     * out one stream for its whole life: Jersey 3.1.9 (GlassFish 7.0.21) calls getInputStream() for every
     * read, and a fresh stream per call would never reach its end. The reader over that stream is made only
     * when asked for: its buffers (24 KB) would otherwise be allocated for every request with a body and never
     * used, and kept as long as the request, a held acquire's for seconds (docs/BENCHMARK.md round 23).
     */
    static HttpServletRequest withBody(HttpServletRequest original, byte[] bytes) {
        original.setAttribute(ATTRIBUTE, bytes);
        CachedInputStream stream = new CachedInputStream(new ByteArrayInputStream(bytes));
        return new HttpServletRequestWrapper(original) {
            private BufferedReader reader;

            @Override
            public ServletInputStream getInputStream() {
                return stream;
            }

            @Override
            public synchronized BufferedReader getReader() {
                if (reader == null) {
                    reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8));
                }
                return reader;
            }
        };
    }

    private static final class CachedInputStream extends ServletInputStream {
        private final ByteArrayInputStream in;

        CachedInputStream(ByteArrayInputStream in) {
            this.in = in;
        }

        @Override
        public int read() {
            return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) {
            return in.read(b, off, len);
        }

        @Override
        public int available() {
            return in.available();
        }

        @Override
        public boolean isFinished() {
            return in.available() == 0;
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
            throw new UnsupportedOperationException("synchronous only");
        }
    }
}
