package dev.keyright.client;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Carries one HTTP exchange to the server. {@link HttpTransport} is the real one, over
 * {@code java.net.http}; tests plug in fakes.
 */
@FunctionalInterface
public interface Transport {

    /**
     * Sends the request and returns the response, whatever its status.
     *
     * @throws IOException on a network error or a timeout
     */
    Response send(Request request) throws IOException, InterruptedException;

    /** An outgoing request; {@code body} is null for a request without one. */
    record Request(String method, URI uri, Map<String, String> headers, String body, Duration timeout) {
        public Request {
            headers = Map.copyOf(headers);
        }

        public Optional<String> header(String name) {
            return headers.entrySet().stream()
                    .filter(h -> h.getKey().equalsIgnoreCase(name))
                    .map(Map.Entry::getValue)
                    .findFirst();
        }
    }

    /** A received response; header names compare case-insensitively. */
    record Response(int status, Map<String, List<String>> headers, String body) {
        public Response {
            Map<String, List<String>> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            headers.forEach((name, values) -> copy.put(name, List.copyOf(values)));
            headers = copy;
            body = body == null ? "" : body;
        }

        public Optional<String> header(String name) {
            List<String> values = headers.get(name);
            return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
        }
    }
}
