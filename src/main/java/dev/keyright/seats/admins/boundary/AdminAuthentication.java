package dev.keyright.seats.admins.boundary;

import dev.keyright.seats.problems.ProblemWriter;
import dev.keyright.seats.throttling.boundary.PasswordGuessingGuard;
import dev.keyright.seats.throttling.boundary.TooManyAttemptsException;
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
                return context.notifyContainerAboutLogin(result);
            }
            guessing.failed(request);
        }
        if (context.isProtected()) {
            response.setHeader("WWW-Authenticate", CHALLENGE);
            return context.responseUnauthorized();
        }
        return context.doNothing();
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
