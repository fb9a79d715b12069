package dev.keyright.seats.admins.boundary;

import dev.keyright.seats.problems.ProblemWriter;
import dev.keyright.seats.throttling.boundary.PasswordGuessingGuard;
import dev.keyright.seats.throttling.boundary.TooManyAttemptsException;
import dev.keyright.seats.web.RequestGate;
import dev.keyright.seats.web.SecurityHeaders;
import jakarta.security.auth.message.AuthException;
import jakarta.security.auth.message.AuthStatus;
import jakarta.security.auth.message.MessageInfo;
import jakarta.security.auth.message.MessagePolicy;
import jakarta.security.auth.message.callback.CallerPrincipalCallback;
import jakarta.security.auth.message.callback.GroupPrincipalCallback;
import jakarta.security.auth.message.module.ServerAuthModule;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiPredicate;
import javax.security.auth.Subject;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.callback.UnsupportedCallbackException;

/**
 * HTTP Basic for the admin API, a Jakarta Authentication module the container asks on every request
 * ({@link AdminAuthenticationInstaller} registers it): the administrator becomes the container's caller in
 * group {@value #ROLE}, which web.xml's constraint, {@code @RolesAllowed} and the role mappings judge as
 * before. Tolerant of malformed headers: anything that is not a well-formed Basic credential is simply no
 * credential (401 where the container says authentication is mandatory, ignored elsewhere), never a server
 * fault; clients' {@code Authorization: License ...} passes through untouched. Wrong credentials count
 * against the caller's address ({@link PasswordGuessingGuard}): slowed, then 429.
 * <p>
 * A request that is not the admin's costs a header check and one callback: no look-up of any kind. (The
 * Jakarta Security mechanism this replaces made Soteria look the BeanManager up by JNDI twice a request;
 * without it a renew takes 16 % less server CPU, docs/BENCHMARK.md round 9.)
 * <p>
 * The application's root is no admin resource (web.xml constrains only {@code /v1/admin/*}, {@code /admin/*}
 * and {@code /admin}), but Payara Micro 7 refuses every request it maps to the root ({@code /}, and
 * {@code /;x/v1/admin/licenses}) to every caller, before any filter: Exousia 3.0.1 checks the container's
 * constrained URI {@code "/"} as the default URL pattern, which no qualified permission implies, where
 * Payara 6 checked it as the context root {@code ""}. There the module answers as the application does
 * on Payara 6: the request gate's refusal, else 404. Payara 6 never reports the root as protected.
 */
public class AdminAuthentication implements ServerAuthModule {

    public static final String ROLE = "keyright-admin";
    static final String CHALLENGE = "Basic realm=\"keyright\", charset=\"UTF-8\"";
    /** Set by the container in the message's map where the resource is constrained (Jakarta Authentication, servlet profile). */
    static final String MANDATORY = "jakarta.security.auth.message.MessagePolicy.isMandatory";

    private final PasswordGuessingGuard guessing;
    private final BiPredicate<String, char[]> administrator;
    private volatile CallbackHandler container;

    /** @param administrator whether a user name and password are the administrator's ({@link AdminCredentials#verify}) */
    public AdminAuthentication(PasswordGuessingGuard guessing, BiPredicate<String, char[]> administrator) {
        this.guessing = guessing;
        this.administrator = administrator;
    }

    @Override
    public void initialize(MessagePolicy requestPolicy, MessagePolicy responsePolicy, CallbackHandler handler,
                           @SuppressWarnings("rawtypes") Map options) {
        this.container = handler;
    }

    @Override
    public Class<?>[] getSupportedMessageTypes() {
        return new Class<?>[] {HttpServletRequest.class, HttpServletResponse.class};
    }

    @Override
    public AuthStatus validateRequest(MessageInfo message, Subject caller, Subject service) throws AuthException {
        HttpServletRequest request = (HttpServletRequest) message.getRequestMessage();
        HttpServletResponse response = (HttpServletResponse) message.getResponseMessage();
        boolean mandatory = Boolean.parseBoolean(String.valueOf(message.getMap().get(MANDATORY)));
        Optional<BasicCredential> credential = basic(request.getHeader("Authorization"));
        if (credential.isPresent()) {
            Optional<TooManyAttemptsException> refused = guessing.admit(request);
            if (refused.isPresent()) {
                return refuse(response, refused.get());
            }
            String user = credential.get().user();
            if (administrator.test(user, credential.get().password().toCharArray())) {
                if (refusedRoot(request, mandatory)) {
                    return answerAtRoot(request, response);
                }
                tell(new CallerPrincipalCallback(caller, user), new GroupPrincipalCallback(caller, new String[] {ROLE}));
                return AuthStatus.SUCCESS;
            }
            guessing.failed(request);
        }
        if (refusedRoot(request, mandatory)) {
            return answerAtRoot(request, response);
        }
        if (mandatory) {
            response.setHeader("WWW-Authenticate", CHALLENGE);
            try {
                response.sendError(HttpServletResponse.SC_UNAUTHORIZED);
            } catch (IOException clientGone) {
                // nothing to answer
            }
            return AuthStatus.SEND_FAILURE;
        }
        tell(new CallerPrincipalCallback(caller, (Principal) null));
        return AuthStatus.SUCCESS;
    }

    @Override
    public AuthStatus secureResponse(MessageInfo message, Subject service) {
        return AuthStatus.SEND_SUCCESS;
    }

    @Override
    public void cleanSubject(MessageInfo message, Subject subject) {
        if (subject != null) {
            subject.getPrincipals().clear();
        }
    }

    private void tell(Callback... callbacks) throws AuthException {
        try {
            container.handle(callbacks);
        } catch (IOException | UnsupportedCallbackException e) {
            AuthException failed = new AuthException("the container refused the caller: " + e);
            failed.initCause(e);
            throw failed;
        }
    }

    /** The root, reported protected although no constraint covers it: Payara Micro 7 (see the class comment). */
    static boolean refusedRoot(HttpServletRequest request, boolean mandatory) {
        String servletPath = request.getServletPath() == null ? "" : request.getServletPath();
        String pathInfo = request.getPathInfo() == null ? "" : request.getPathInfo();
        return mandatory && (servletPath + pathInfo).equals("/");
    }

    /**
     * The answer the application gives at its root on Payara 6 (RequestGate's refusal, else 404: nothing is
     * served there), with the security headers, committed here: the container would refuse it whatever the
     * module returns, to the administrator too.
     */
    private static AuthStatus answerAtRoot(HttpServletRequest request, HttpServletResponse response) {
        try {
            SecurityHeaders.apply(response);
            if (!RequestGate.refuses(request, response)) {
                ProblemWriter.write(response, 404);
            }
            response.flushBuffer();
        } catch (IOException clientGone) {
            // nothing to answer
        }
        return AuthStatus.SEND_FAILURE;
    }

    /** 429 problem+json with Retry-After, committed here so that the container cannot turn it into a 401. */
    private static AuthStatus refuse(HttpServletResponse response, TooManyAttemptsException refused) {
        try {
            ProblemWriter.write(response, refused);
            response.flushBuffer();
        } catch (IOException clientGone) {
            // nothing to answer
        }
        return AuthStatus.SEND_FAILURE;
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
