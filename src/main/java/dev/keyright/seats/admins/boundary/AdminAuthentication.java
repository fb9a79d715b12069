package dev.keyright.seats.admins.boundary;

import dev.keyright.seats.problems.ProblemWriter;
import dev.keyright.seats.throttling.boundary.PasswordGuessingGuard;
import dev.keyright.seats.throttling.boundary.TooManyAttemptsException;
import dev.keyright.seats.web.RequestGate;
import dev.keyright.seats.web.SecurityHeaders;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.security.enterprise.AuthenticationStatus;
import jakarta.security.enterprise.authentication.mechanism.http.HttpAuthenticationMechanism;
import jakarta.security.enterprise.authentication.mechanism.http.HttpMessageContext;
import jakarta.security.enterprise.credential.Password;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.IdentityStoreHandler;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/**
 * HTTP Basic for the admin API through Jakarta Security, tolerant of malformed headers: anything that
 * is not a well-formed Basic credential is simply no credential (401 on protected resources, ignored
 * elsewhere), never a server fault. Clients' {@code Authorization: License ...} passes through untouched.
 * Wrong credentials count against the caller's address ({@link PasswordGuessingGuard}): slowed, then 429.
 * <p>
 * The application's root is no admin resource (web.xml constrains only {@code /v1/admin/*}, {@code /admin/*}
 * and {@code /admin}), but Payara Micro 7 refuses every request it maps to the root ({@code /}, and
 * {@code /;x/v1/admin/licenses}) to every caller, before any filter: Exousia 3.0.1 checks the container's
 * constrained URI {@code "/"} as the default URL pattern, which no qualified permission implies, where
 * Payara 6 checked it as the context root {@code ""}. There the mechanism answers as the application does
 * on Payara 6: the request gate's refusal, else 404. Payara 6 never reports the root as protected.
 */
@ApplicationScoped
public class AdminAuthentication implements HttpAuthenticationMechanism {

    static final String CHALLENGE = "Basic realm=\"keyright\", charset=\"UTF-8\"";

    @Inject
    IdentityStoreHandler identityStores;
    @Inject
    PasswordGuessingGuard guessing;

    @Override
    public AuthenticationStatus validateRequest(HttpServletRequest request, HttpServletResponse response,
                                                HttpMessageContext context) {
        Optional<UsernamePasswordCredential> credential = basic(request.getHeader("Authorization"));
        if (credential.isPresent()) {
            Optional<TooManyAttemptsException> refused = guessing.admit(request);
            if (refused.isPresent()) {
                return refuse(response, refused.get());
            }
            CredentialValidationResult result = identityStores.validate(credential.get());
            if (result.getStatus() == CredentialValidationResult.Status.VALID) {
                return refusedRoot(request, context) ? answerAtRoot(request, response) : context.notifyContainerAboutLogin(result);
            }
            guessing.failed(request);
        }
        if (refusedRoot(request, context)) {
            return answerAtRoot(request, response);
        }
        if (context.isProtected()) {
            response.setHeader("WWW-Authenticate", CHALLENGE);
            return context.responseUnauthorized();
        }
        return context.doNothing();
    }

    /** The root, reported protected although no constraint covers it: Payara Micro 7 (see the class comment). */
    static boolean refusedRoot(HttpServletRequest request, HttpMessageContext context) {
        String servletPath = request.getServletPath() == null ? "" : request.getServletPath();
        String pathInfo = request.getPathInfo() == null ? "" : request.getPathInfo();
        return context.isProtected() && (servletPath + pathInfo).equals("/");
    }

    /**
     * The answer the application gives at its root on Payara 6 (RequestGate's refusal, else 404: nothing is
     * served there), with the security headers, committed here: the container would refuse it whatever the
     * mechanism returns, to the administrator too.
     */
    private static AuthenticationStatus answerAtRoot(HttpServletRequest request, HttpServletResponse response) {
        try {
            SecurityHeaders.apply(response);
            if (!RequestGate.refuses(request, response)) {
                ProblemWriter.write(response, 404);
            }
            response.flushBuffer();
        } catch (IOException clientGone) {
            // nothing to answer
        }
        return AuthenticationStatus.SEND_FAILURE;
    }

    /** 429 problem+json with Retry-After, committed here so that the container cannot turn it into a 401. */
    private static AuthenticationStatus refuse(HttpServletResponse response, TooManyAttemptsException refused) {
        try {
            ProblemWriter.write(response, refused);
            response.flushBuffer();
        } catch (IOException clientGone) {
            // nothing to answer
        }
        return AuthenticationStatus.SEND_FAILURE;
    }

    static Optional<UsernamePasswordCredential> basic(String header) {
        if (header == null || header.length() < 7 || !header.regionMatches(true, 0, "Basic ", 0, 6) || header.length() > 4096) {
            return Optional.empty();
        }
        try {
            String decoded = new String(Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            if (colon <= 0) {
                return Optional.empty();
            }
            return Optional.of(new UsernamePasswordCredential(decoded.substring(0, colon), new Password(decoded.substring(colon + 1))));
        } catch (IllegalArgumentException malformed) {
            return Optional.empty();
        }
    }
}
