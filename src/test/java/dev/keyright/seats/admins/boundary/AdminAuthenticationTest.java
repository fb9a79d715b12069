package dev.keyright.seats.admins.boundary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.throttling.boundary.PasswordGuessingGuard;
import dev.keyright.seats.throttling.boundary.TooManyAttemptsException;
import jakarta.security.auth.message.AuthException;
import jakarta.security.auth.message.AuthStatus;
import jakarta.security.auth.message.MessageInfo;
import jakarta.security.auth.message.callback.CallerPrincipalCallback;
import jakarta.security.auth.message.callback.GroupPrincipalCallback;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.security.auth.Subject;
import javax.security.auth.callback.Callback;
import org.junit.jupiter.api.Test;

/** The admin authentication module as the container calls it: client paths untouched, the administrator in his group, the rest refused. */
class AdminAuthenticationTest {

    private final List<String> checked = new ArrayList<>();
    private final List<String> guard = new ArrayList<>();
    private final List<Callback> told = new ArrayList<>();
    private final Map<String, Object> response = new HashMap<>();
    private final AdminAuthentication module = new AdminAuthentication(new RecordingGuard(), (user, password) -> {
        checked.add(user);
        return user.equals("admin") && new String(password).equals("s3cret");
    });

    AdminAuthenticationTest() {
        module.initialize(null, null, callbacks -> told.addAll(List.of(callbacks)), Map.of());
    }

    @Test
    void aClientRequestPassesWithNoCallerAndNoCredentialCheck() throws AuthException {
        assertEquals(AuthStatus.SUCCESS, module.validateRequest(message("/v1/seats/renew", "License k", false), new Subject(), null));
        assertEquals(List.of(), checked, "no password check, no look-up");
        assertEquals(List.of(), guard);
        assertEquals(1, told.size());
        assertNull(((CallerPrincipalCallback) told.get(0)).getName());
        assertNull(((CallerPrincipalCallback) told.get(0)).getPrincipal());
        assertTrue(response.isEmpty(), "nothing written: " + response);
    }

    @Test
    void theAdministratorBecomesTheCallerInTheAdminGroup() throws AuthException {
        Subject caller = new Subject();
        assertEquals(AuthStatus.SUCCESS, module.validateRequest(message("/v1/admin/licenses", basic("admin:s3cret"), true), caller, null));
        assertEquals("admin", ((CallerPrincipalCallback) told.get(0)).getName());
        assertEquals(List.of(AdminAuthentication.ROLE), List.of(((GroupPrincipalCallback) told.get(1)).getGroups()));
        assertEquals(List.of("admit"), guard);
        assertTrue(response.isEmpty(), "nothing written: " + response);
    }

    @Test
    void noCredentialWhereAuthenticationIsMandatoryIsChallenged() throws AuthException {
        assertEquals(AuthStatus.SEND_FAILURE, module.validateRequest(message("/v1/admin/licenses", null, true), new Subject(), null));
        assertEquals(401, response.get("sendError"));
        assertEquals(AdminAuthentication.CHALLENGE, response.get("WWW-Authenticate"));
        assertEquals(List.of(), told, "no caller");
    }

    @Test
    void aWrongPasswordCountsAgainstTheCallerAndIsChallenged() throws AuthException {
        assertEquals(AuthStatus.SEND_FAILURE, module.validateRequest(message("/v1/admin/licenses", basic("admin:guess"), true), new Subject(), null));
        assertEquals(List.of("admit", "failed"), guard);
        assertEquals(401, response.get("sendError"));
        assertEquals(List.of(), told);
    }

    @Test
    void aWrongPasswordOnAClientPathChangesNothingButIsCounted() throws AuthException {
        assertEquals(AuthStatus.SUCCESS, module.validateRequest(message("/v1/health", basic("admin:guess"), false), new Subject(), null));
        assertEquals(List.of("admit", "failed"), guard);
        assertNull(((CallerPrincipalCallback) told.get(0)).getName());
        assertTrue(response.isEmpty());
    }

    @Test
    void malformedHeadersAreNoCredential() {
        for (String header : new String[] {null, "", "Basic", "Basic !!!", "Basic " + b64("nocolon"), "Basic " + b64(":nouser"),
                "Bearer x", "License abc", "Basic " + "A".repeat(5000)}) {
            assertEquals(Optional.empty(), AdminAuthentication.basic(header), String.valueOf(header));
        }
        AdminAuthentication.BasicCredential credential = AdminAuthentication.basic("basic " + b64("admin:pa:ss")).orElseThrow();
        assertEquals(new AdminAuthentication.BasicCredential("admin", "pa:ss"), credential);
        assertFalse(credential.toString().contains("pa:ss"), "the password never reaches a log line");
    }

    @Test
    void theRootReportedProtectedIsAnsweredByTheModule() {
        assertTrue(AdminAuthentication.refusedRoot(request("", "/", null), true), "Payara Micro 7");
        assertFalse(AdminAuthentication.refusedRoot(request("", "/", null), false), "Payara 6: the root is not protected");
    }

    @Test
    void anAdminPathReportedProtectedIsLeftToTheChallenge() {
        assertFalse(AdminAuthentication.refusedRoot(request("", "/v1/admin/licenses", null), true));
        assertFalse(AdminAuthentication.refusedRoot(request("/admin", null, null), true));
        assertFalse(AdminAuthentication.refusedRoot(request("", null, null), true), "no path at all is not the root");
    }

    @Test
    void theSubjectIsCleaned() {
        Subject subject = new Subject();
        subject.getPrincipals().add(() -> "admin");
        module.cleanSubject(null, subject);
        assertTrue(subject.getPrincipals().isEmpty());
    }

    private MessageInfo message(String path, String authorization, boolean mandatory) {
        HttpServletRequest request = request("", path, authorization);
        HttpServletResponse answer = (HttpServletResponse) Proxy.newProxyInstance(HttpServletResponse.class.getClassLoader(),
                new Class<?>[] {HttpServletResponse.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "setHeader" -> response.put((String) args[0], args[1]);
                    case "sendError" -> response.put("sendError", args[0]);
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        Map<String, Object> map = new HashMap<>();
        if (mandatory) {
            map.put(AdminAuthentication.MANDATORY, "true");
        }
        return new MessageInfo() {
            public Object getRequestMessage() { return request; }
            public Object getResponseMessage() { return answer; }
            public void setRequestMessage(Object request) { throw new UnsupportedOperationException(); }
            public void setResponseMessage(Object response) { throw new UnsupportedOperationException(); }
            @SuppressWarnings("rawtypes")
            public Map getMap() { return map; }
        };
    }

    private static HttpServletRequest request(String servletPath, String pathInfo, String authorization) {
        return (HttpServletRequest) Proxy.newProxyInstance(HttpServletRequest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getServletPath" -> servletPath;
                    case "getPathInfo" -> pathInfo;
                    case "getHeader" -> "Authorization".equals(args[0]) ? authorization : null;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private static String basic(String userAndPassword) {
        return "Basic " + b64(userAndPassword);
    }

    private static String b64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    /** Records what the module asks of the guard; never refuses. */
    private final class RecordingGuard extends PasswordGuessingGuard {
        @Override
        public Optional<TooManyAttemptsException> admit(HttpServletRequest request) {
            guard.add("admit");
            return Optional.empty();
        }

        @Override
        public void failed(HttpServletRequest request) {
            guard.add("failed");
        }
    }
}
