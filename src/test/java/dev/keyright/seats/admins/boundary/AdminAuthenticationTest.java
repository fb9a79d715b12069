package dev.keyright.seats.admins.boundary;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.security.enterprise.authentication.mechanism.http.HttpMessageContext;
import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;

/** When the mechanism answers in the container's place: only at the root, and only where the container calls it protected. */
class AdminAuthenticationTest {

    @Test
    void theRootReportedProtectedIsAnsweredByTheMechanism() {
        assertTrue(AdminAuthentication.refusedRoot(request("", "/"), context(true)), "Payara Micro 7");
        assertFalse(AdminAuthentication.refusedRoot(request("", "/"), context(false)), "Payara 6: the root is not protected");
    }

    @Test
    void anAdminPathReportedProtectedIsLeftToTheChallenge() {
        assertFalse(AdminAuthentication.refusedRoot(request("", "/v1/admin/licenses"), context(true)));
        assertFalse(AdminAuthentication.refusedRoot(request("/admin", null), context(true)));
        assertFalse(AdminAuthentication.refusedRoot(request("", null), context(true)), "no path at all is not the root");
    }

    private static HttpServletRequest request(String servletPath, String pathInfo) {
        return (HttpServletRequest) Proxy.newProxyInstance(HttpServletRequest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getServletPath" -> servletPath;
                    case "getPathInfo" -> pathInfo;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private static HttpMessageContext context(boolean isProtected) {
        return (HttpMessageContext) Proxy.newProxyInstance(HttpMessageContext.class.getClassLoader(),
                new Class<?>[] {HttpMessageContext.class}, (proxy, method, args) -> {
                    if (method.getName().equals("isProtected")) {
                        return isProtected;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }
}
