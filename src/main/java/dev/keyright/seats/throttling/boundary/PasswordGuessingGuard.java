package dev.keyright.seats.throttling.boundary;

import dev.keyright.seats.throttling.control.Throttle;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Clock;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Slows, then refuses, a client address that keeps presenting wrong admin credentials: the admin
 * counterpart of {@link KeyGuessingGuard}, with the same limits ({@code KEYRIGHT_AUTH_*}) and its own
 * per-node ledger. Called by the admin paths' authentication filter ({@code AdminAuthentication}), which runs before any other filter but the security headers.
 * Besides guessing, it bounds the CPU an attacker can make the server spend on password hashing.
 */
@ApplicationScoped
public class PasswordGuessingGuard {

    /** Admin credentials are one bucket of the throttle, apart from every product's license keys. */
    private static final String BUCKET = "admin-credentials";

    @Inject
    Throttle throttle;
    @Inject
    Clock clock;

    /** Before a credential is checked: the refusal to send, if any; slows the caller when it is close to one. */
    public Optional<TooManyAttemptsException> admit(HttpServletRequest request) {
        OptionalInt retryAfter = throttle.admit(addressOf(request), BUCKET, clock.instant());
        return retryAfter.isPresent() ? Optional.of(TooManyAttemptsException.adminCredentials(retryAfter.getAsInt())) : Optional.empty();
    }

    /** A credential was presented and was wrong. */
    public void failed(HttpServletRequest request) {
        throttle.failed(addressOf(request), BUCKET, clock.instant());
    }

    private String addressOf(HttpServletRequest request) {
        return throttle.addressOf(request.getRemoteAddr(), request.getHeader("X-Forwarded-For"));
    }
}
