package dev.keyright.seats.problems;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** Writes a problem document straight to a servlet response (filters and the error page). */
public final class ProblemWriter {

    private ProblemWriter() {
    }

    public static void write(HttpServletResponse response, BusinessException e) throws IOException {
        e.retryAfterSeconds().ifPresent(seconds -> response.setHeader("Retry-After", String.valueOf(seconds)));
        e.headers().forEach(response::setHeader);
        write(response, e.status(), Problems.document(e));
    }

    public static void write(HttpServletResponse response, int status) throws IOException {
        write(response, status, Problems.forStatus(status));
    }

    private static void write(HttpServletResponse response, int status, String document) throws IOException {
        byte[] bytes = document.getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType(Problems.MEDIA_TYPE);
        response.setCharacterEncoding("UTF-8");
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }
}
