package dev.keyright.seats.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Headers on every response: no content sniffing, no framing, no referrers, no server banner, and
 * never stored by caches (answers carry lease tokens and one-time license keys). The same on every path,
 * so no spelling of a path can lose them; a resource may relax caching for its own static files.
 */
public class SecurityHeaders extends HttpFilter {

    private static final long serialVersionUID = 1L;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        apply(response);
        chain.doFilter(request, response);
    }

    private static void apply(HttpServletResponse response) {
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("Referrer-Policy", "no-referrer");
        response.setHeader("Server", "Keyright");
        response.setHeader("Cache-Control", "no-store");
    }
}
