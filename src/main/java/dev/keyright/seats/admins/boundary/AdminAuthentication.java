package dev.keyright.seats.admins.boundary;

import dev.keyright.seats.problems.ProblemWriter;
import dev.keyright.seats.throttling.boundary.PasswordGuessingGuard;
import dev.keyright.seats.throttling.boundary.TooManyAttemptsException;
import jakarta.ejb.EJB;
import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.Base64;
import java.util.Optional;
import java.util.function.BiPredicate;

/**
 * HTTP Basic for the admin API and the admin page: the servlet filter web.xml maps to {@code /v1/admin/*},
 * {@code /admin/*} and {@code /admin}, right after the security headers and before every other filter. The
 * administrator passes on as the request's caller in role {@value #ROLE} (which the admin resources check
 * again, {@link AdminOnly}); anyone else is 401 with the Basic challenge, and wrong credentials count against
 * the caller's address ({@link PasswordGuessingGuard}: slowed, then 429). Tolerant of malformed headers: anything
 * that is not a well-formed Basic credential is simply no credential, never a server fault.
 * <p>
 * No request outside those paths meets any of it: the application declares no security constraint and registers
 * no authentication module, so the container skips its security valve (the transport check, Jakarta
 * Authentication and Authorization) on every client call. With the constraint and the module this replaces, that
 * valve was 8 % of a renew's server CPU samples (docs/BENCHMARK.md round 26).
 */
public class AdminAuthentication extends HttpFilter {

    /** The administrator's role, which {@link AdminOnlyFeature} asks of the caller. */
    static final String ROLE = "keyright-admin";
    static final String CHALLENGE = "Basic realm=\"keyright\", charset=\"UTF-8\"";
    private static final long serialVersionUID = 1L;

    @Inject
    transient PasswordGuessingGuard guessing;
    @EJB
    transient AdminCredentials credentials;
    /** Whether a user name and password are the administrator's ({@link AdminCredentials#verify}). */
    transient BiPredicate<String, char[]> administrator;

    @Override
    public void init() {
        if (administrator == null) {
            administrator = credentials::verify;
        }
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        Optional<BasicCredential> credential = basic(request.getHeader("Authorization"));
        if (credential.isPresent()) {
            Optional<TooManyAttemptsException> refused = guessing.admit(request);
            if (refused.isPresent()) {
                ProblemWriter.write(response, refused.get());
                return;
            }
            String user = credential.get().user();
            if (administrator.test(user, credential.get().password().toCharArray())) {
                chain.doFilter(new AdministratorRequest(request, user), response);
                return;
            }
            guessing.failed(request);
        }
        response.setHeader("WWW-Authenticate", CHALLENGE);
        ProblemWriter.write(response, HttpServletResponse.SC_UNAUTHORIZED);
    }

    /** The request as the administrator's: the caller the container would have reported, in the admin role. */
    static final class AdministratorRequest extends HttpServletRequestWrapper {

        private final Principal caller;

        AdministratorRequest(HttpServletRequest request, String user) {
            super(request);
            this.caller = new AdminPrincipal(user);
        }

        @Override
        public Principal getUserPrincipal() {
            return caller;
        }

        @Override
        public String getRemoteUser() {
            return caller.getName();
        }

        @Override
        public boolean isUserInRole(String role) {
            return ROLE.equals(role);
        }

        @Override
        public String getAuthType() {
            return HttpServletRequest.BASIC_AUTH;
        }
    }

    /** The administrator as a caller. */
    record AdminPrincipal(String name) implements Principal {
        @Override
        public String getName() {
            return name;
        }
    }

    /** What an {@code Authorization: Basic} header carries; its text never shows the password. */
    record BasicCredential(String user, String password) {
        @Override
        public String toString() {
            return "BasicCredential[user=" + user + "]";
        }
    }

    /** User name and password of a well-formed {@code Authorization: Basic} header, else nothing. */
    static Optional<BasicCredential> basic(String header) {
        if (header == null || header.length() < 7 || !header.regionMatches(true, 0, "Basic ", 0, 6) || header.length() > 4096) {
            return Optional.empty();
        }
        try {
            String decoded = new String(Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            if (colon <= 0) {
                return Optional.empty();
            }
            return Optional.of(new BasicCredential(decoded.substring(0, colon), decoded.substring(colon + 1)));
        } catch (IllegalArgumentException malformed) {
            return Optional.empty();
        }
    }
}
