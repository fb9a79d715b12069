package dev.keyright.seats.web;

import dev.keyright.seats.problems.ProblemWriter;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The container's error page (web.xml maps every error status and every exception here): a problem
 * document instead of an HTML page, never a stack trace.
 */
@WebServlet(urlPatterns = "/problem", asyncSupported = true)
public class ErrorPageServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(ErrorPageServlet.class.getName());

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        Object exception = request.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
        int status = code instanceof Integer i ? i : 404;
        if (exception instanceof Throwable t) {
            LOG.log(Level.SEVERE, "Unhandled fault at " + request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI), t);
            status = 500;
        }
        response.resetBuffer();
        ProblemWriter.write(response, status);
    }
}
