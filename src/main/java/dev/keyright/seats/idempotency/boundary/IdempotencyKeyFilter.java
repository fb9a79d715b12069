package dev.keyright.seats.idempotency.boundary;

import dev.keyright.seats.idempotency.control.Fingerprints;
import dev.keyright.seats.idempotency.control.IdempotencyKeys;
import dev.keyright.seats.problems.InvalidRequestException;
import dev.keyright.seats.problems.ProblemWriter;
import dev.keyright.seats.web.JsonBodies;
import dev.keyright.seats.web.RequestBodies;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import java.util.Optional;

/**
 * Owns the {@code Idempotency-Key} header of acquire: validates it, fingerprints the request and hands
 * both to the checkout, which replays a stored response (or answers 422 for another request under the
 * same key) after taking the license lock, and stores a success in the same transaction as its lease.
 */
public class IdempotencyKeyFilter extends HttpFilter {

    public static final String HEADER = "Idempotency-Key";
    private static final long serialVersionUID = 1L;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (!"POST".equals(request.getMethod()) || request.getHeader(HEADER) == null) {
            chain.doFilter(request, response);
            return;
        }
        if (Collections.list(request.getHeaders(HEADER)).size() > 1) {
            ProblemWriter.write(response, new InvalidRequestException(HEADER, "must be sent once"));
            return;
        }
        Optional<String> key = IdempotencyKeys.parse(request.getHeader(HEADER));
        if (key.isEmpty()) {
            ProblemWriter.write(response, new InvalidRequestException(HEADER,
                    "must be 1 to " + IdempotencyKeys.MAX_LENGTH + " printable ASCII characters, bare or as a quoted string"));
            return;
        }
        request.setAttribute(IdempotentRequests.KEY_ATTRIBUTE, key.get());
        request.setAttribute(IdempotentRequests.FINGERPRINT_ATTRIBUTE,
                Fingerprints.of(request.getMethod(), request.getRequestURI(), JsonBodies.find(request), RequestBodies.text(request)));
        chain.doFilter(request, response);
    }
}
