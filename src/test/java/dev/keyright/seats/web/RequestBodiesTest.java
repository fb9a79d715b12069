package dev.keyright.seats.web;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.http.HttpServletRequest;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestBodiesTest {

    private static final byte[] BODY = "{\"product\":\"cad-pro\",\"clientInstanceId\":\"ws-1\"}".getBytes(StandardCharsets.UTF_8);

    @Test
    void theBodyIsReadByItsStreamOnceAndByItsReaderAlike() throws Exception {
        HttpServletRequest request = RequestBodies.withBody(request(), BODY);
        assertArrayEquals(BODY, request.getInputStream().readAllBytes());
        assertEquals(-1, request.getInputStream().read(), "one stream for the request's whole life, now at its end");
        assertArrayEquals(BODY, RequestBodies.of(request).orElseThrow(), "remembered for the filters after");

        HttpServletRequest other = RequestBodies.withBody(request(), BODY);
        assertSame(other.getReader(), other.getReader(), "one reader too");
        assertEquals(new String(BODY, StandardCharsets.UTF_8), other.getReader().readLine());
    }

    /**
     * A request handed on with its body allocates no reader's buffers (a BufferedReader's 8,192 chars and its
     * decoder's 8,192 bytes) unless the reader is asked for: nothing on the server asks, and a held acquire keeps its
     * request for seconds. Counted with the JVM's per-thread allocation counter, over many requests.
     */
    @Test
    void aRequestHandedOnWithItsBodyAllocatesNoReaderUnlessOneIsAskedFor() throws Exception {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        HttpServletRequest original = request();
        for (int i = 0; i < 1_000; i++) {
            RequestBodies.withBody(original, BODY).getInputStream(); // warm: classes loaded, code compiled
        }
        int requests = 1_000;
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < requests; i++) {
            RequestBodies.withBody(original, BODY).getInputStream();
        }
        long perRequest = (threads.getCurrentThreadAllocatedBytes() - before) / requests;
        assertTrue(perRequest < 1_024, "bytes allocated per request handed on: " + perRequest
                + " (a reader's buffers alone are 24,576)");

        long withReader = threads.getCurrentThreadAllocatedBytes();
        RequestBodies.withBody(original, BODY).getReader();
        assertTrue(threads.getCurrentThreadAllocatedBytes() - withReader >= 16_384, "a reader asked for is made then");
    }

    /** A request whose attributes are a map; nothing else is asked of it. */
    private static HttpServletRequest request() {
        Map<String, Object> attributes = new HashMap<>();
        return (HttpServletRequest) Proxy.newProxyInstance(RequestBodiesTest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "setAttribute" -> {
                        attributes.put((String) args[0], args[1]);
                        yield null;
                    }
                    case "getAttribute" -> attributes.get((String) args[0]);
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
