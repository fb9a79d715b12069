package dev.keyright.seats.problems;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** Refuses request bodies over {@value RequestBodies#MAX_BYTES} bytes with 413 before anything parses them. */
@WebFilter(urlPatterns = "/*")
public class BodyLimitFilter extends HttpFilter {

    private static final long serialVersionUID = 1L;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        boolean hasBody = request.getContentLengthLong() > 0 || request.getHeader("Transfer-Encoding") != null;
        if (!hasBody) {
            chain.doFilter(request, response);
            return;
        }
        RequestBodies.Cached body = RequestBodies.cache(request);
        if (body.tooLarge()) {
            ProblemWriter.write(response, 413);
            return;
        }
        chain.doFilter(body.request(), response);
    }
}
