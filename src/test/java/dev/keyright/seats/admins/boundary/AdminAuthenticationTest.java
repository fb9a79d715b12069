package dev.keyright.seats.admins.boundary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.throttling.boundary.PasswordGuessingGuard;
import dev.keyright.seats.throttling.boundary.TooManyAttemptsException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The admin paths' filter as the container calls it: the administrator passes on in the admin role, anyone else is refused. */
class AdminAuthenticationTest {

    private final List<String> checked = new ArrayList<>();
    private final List<String> guard = new ArrayList<>();
    private final Map<String, Object> response = new HashMap<>();
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    private final List<HttpServletRequest> passedOn = new ArrayList<>();
    private final AdminAuthentication filter = new AdminAuthentication();
    private boolean refuseAll;

    AdminAuthenticationTest() {
        filter.guessing = new RecordingGuard();
        filter.administrator = (user, password) -> {
            checked.add(user);
            return user.equals("admin") && new String(password).equals("s3cret");
        };
        filter.init();
    }

    @Test
    void theAdministratorPassesOnAsTheCallerInTheAdminRole() throws Exception {
        filter.doFilter(request(basic("admin:s3cret")), answer(), (request, response) -> passedOn.add((HttpServletRequest) request));
        assertEquals(1, passedOn.size(), "the request went on");
        HttpServletRequest asAdministrator = passedOn.get(0);
        assertEquals("admin", asAdministrator.getUserPrincipal().getName());
        assertEquals("admin", asAdministrator.getRemoteUser());
        assertTrue(asAdministrator.isUserInRole(AdminAuthentication.ROLE));
        assertFalse(asAdministrator.isUserInRole("somebody-else"));
        assertEquals(HttpServletRequest.BASIC_AUTH, asAdministrator.getAuthType());
        assertEquals(List.of("admit"), guard);
        assertTrue(response.isEmpty(), "nothing written: " + response);
    }

    @Test
    void noCredentialIsChallengedWithAProblemAndNothingRuns() throws Exception {
        filter.doFilter(request(null), answer(), (request, response) -> passedOn.add((HttpServletRequest) request));
        assertEquals(List.of(), passedOn);
        assertEquals(401, response.get("status"));
        assertEquals(AdminAuthentication.CHALLENGE, response.get("WWW-Authenticate"));
        assertEquals("application/problem+json", response.get("contentType"));
        assertTrue(body.toString(StandardCharsets.UTF_8).contains("\"status\":401"), body.toString(StandardCharsets.UTF_8));
        assertEquals(List.of(), checked, "no password check");
        assertEquals(List.of(), guard, "no credential, nothing counted");
    }

    @Test
    void aWrongPasswordCountsAgainstTheCallerAndIsChallenged() throws Exception {
        filter.doFilter(request(basic("admin:guess")), answer(), (request, response) -> passedOn.add((HttpServletRequest) request));
        assertEquals(List.of(), passedOn);
        assertEquals(List.of("admin"), checked);
        assertEquals(List.of("admit", "failed"), guard);
        assertEquals(401, response.get("status"));
        assertEquals(AdminAuthentication.CHALLENGE, response.get("WWW-Authenticate"));
    }

    @Test
    void anAddressThatGuessedTooOftenIsRefusedBeforeThePasswordIsChecked() throws Exception {
        refuseAll = true;
        filter.doFilter(request(basic("admin:s3cret")), answer(), (request, response) -> passedOn.add((HttpServletRequest) request));
        assertEquals(List.of(), passedOn);
        assertEquals(List.of(), checked, "no hashing for a caller locked out");
        assertEquals(429, response.get("status"));
        assertEquals("30", response.get("Retry-After"));
        assertNull(response.get("WWW-Authenticate"));
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

    private HttpServletResponse answer() {
        ServletOutputStream out = new ServletOutputStream() {
            @Override
            public void write(int b) {
                body.write(b);
            }

            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void setWriteListener(WriteListener listener) {
                throw new UnsupportedOperationException();
            }
        };
        return (HttpServletResponse) Proxy.newProxyInstance(HttpServletResponse.class.getClassLoader(),
                new Class<?>[] {HttpServletResponse.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "setHeader" -> response.put((String) args[0], args[1]);
                    case "setStatus" -> response.put("status", args[0]);
                    case "setContentType" -> response.put("contentType", args[0]);
                    case "setCharacterEncoding", "setContentLength" -> null;
                    case "getOutputStream" -> out;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private static HttpServletRequest request(String authorization) {
        return (HttpServletRequest) Proxy.newProxyInstance(HttpServletRequest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> switch (method.getName()) {
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

    /** Records what the filter asks of the guard; refuses everything when the test says so. */
    private final class RecordingGuard extends PasswordGuessingGuard {
        @Override
        public Optional<TooManyAttemptsException> admit(HttpServletRequest request) {
            guard.add("admit");
            return refuseAll ? Optional.of(TooManyAttemptsException.adminCredentials(30)) : Optional.empty();
        }

        @Override
        public void failed(HttpServletRequest request) {
            guard.add("failed");
        }
    }
}
