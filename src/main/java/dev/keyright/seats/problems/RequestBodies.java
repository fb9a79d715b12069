package dev.keyright.seats.problems;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** Request bodies read once, at most {@value #MAX_BYTES} bytes, and handed on as a re-readable request. */
public final class RequestBodies {

    public static final int MAX_BYTES = 16 * 1024;

    private RequestBodies() {
    }

    public static Cached cache(HttpServletRequest request) throws IOException {
        if (request.getContentLengthLong() > MAX_BYTES) {
            return new Cached(request, null);
        }
        byte[] bytes;
        try (InputStream in = request.getInputStream()) {
            bytes = in.readNBytes(MAX_BYTES + 1);
        }
        return new Cached(request, bytes.length > MAX_BYTES ? null : bytes);
    }

    /** A body read into memory, or too large to read. */
    public record Cached(HttpServletRequest original, byte[] bytes) {

        public boolean tooLarge() {
            return bytes == null;
        }

        public String text() {
            return new String(bytes, StandardCharsets.UTF_8);
        }

        /**
         * The request with this body. Like a container's own request, it hands out one stream for its whole
         * life: Jersey 3.1.9 (GlassFish 7.0.21) calls getInputStream() for every read, and a fresh stream
         * per call would never reach its end.
         */
        public HttpServletRequest request() {
            CachedInputStream stream = new CachedInputStream(new ByteArrayInputStream(bytes));
            BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8));
            return new HttpServletRequestWrapper(original) {
                @Override
                public ServletInputStream getInputStream() {
                    return stream;
                }

                @Override
                public BufferedReader getReader() {
                    return reader;
                }
            };
        }
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
