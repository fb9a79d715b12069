package dev.keyright.seats.web;

import dev.keyright.seats.problems.InvalidPathException;
import dev.keyright.seats.problems.ProblemWriter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Set;

/**
 * The first filter of every request after the security headers (and, on the admin paths, the admin's
 * authentication, which lets only the administrator on: a stranger learns nothing from the gate there): a path that
 * is not canonical ({@link CanonicalPaths}) is 400 {@code invalid-path}, and a method the API does not
 * speak (OPTIONS, TRACE, CONNECT, ...) is 405, and a body that does not say it is UTF-8 in a well-formed
 * {@code Content-Type} is 415 ({@link ContentTypes}), before any other filter or resource runs. So no
 * request is ever routed on one spelling of its path while a filter judged another.
 * It also records the connection's remote address as the request attribute {@link #REMOTE_ADDRESS}, which
 * a JAX-RS filter reads as a property of its request context: cheaper than the container's request-scoped
 * {@code HttpServletRequest} proxy (a JFR profile put that proxy's lookup at 2.8 % of a renew).
 */
public class RequestGate extends HttpFilter {

    public static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PATCH", "DELETE", "PUT");
    /** The request attribute (a JAX-RS request property) holding {@code getRemoteAddr()} of the connection. */
    public static final String REMOTE_ADDRESS = RequestGate.class.getName() + ".remoteAddress";
    private static final long serialVersionUID = 1L;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (!refuses(request, response)) {
            request.setAttribute(REMOTE_ADDRESS, request.getRemoteAddr());
            chain.doFilter(request, response);
        }
    }

    /** Writes the gate's refusal of the request and answers true, or answers false and writes nothing when the request may pass. */
    private static boolean refuses(HttpServletRequest request, HttpServletResponse response) throws IOException {
        // The container strips a ;jsessionid= path parameter from the request URI before anyone sees it:
        // it is refused all the same (the API keeps no sessions).
        if (!CanonicalPaths.isCanonical(request.getRequestURI()) || request.isRequestedSessionIdFromURL()) {
            ProblemWriter.write(response, new InvalidPathException());
            return true;
        }
        if (!METHODS.contains(request.getMethod())) {
            response.setHeader("Allow", "GET, HEAD, POST, PATCH, DELETE");
            ProblemWriter.write(response, 405);
            return true;
        }
        if (RequestBodies.hasBody(request) && !ContentTypes.acceptable(request.getContentType())) {
            ProblemWriter.write(response, 415);
            return true;
        }
        return false;
    }
}
