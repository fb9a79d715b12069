package dev.keyright.seats.throttling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import dev.keyright.seats.testing.OnTheServer;
import dev.keyright.seats.testing.Api;
import dev.keyright.seats.testing.Tables;
import jakarta.json.JsonObject;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.junit.jupiter.api.Test;

/**
 * Wrong license keys and wrong admin credentials over HTTP: one 401 whatever the cause, slowed then refused
 * (429) per client address and product, another product and the operator's trusted networks unaffected,
 * and the admin API closed to anyone without the admin role.
 */
class WrongCredentialsIT extends OnTheServer {

    private static String product() {
        return uniqueProduct("prod");
    }

    @Test
    void invalidKeysAreA401WithOneBodyWhateverTheCause() {
        Api api = api();
        String product = product();
        String key = api.createLicense(product, 1, 60, 5).getString("licenseKey");
        Api.Reply unknown = api.acquire(product, "NOPE-0000-0000", "inst-a");
        Api.Reply wrongProduct = api.acquire("other-product", key, "inst-a");
        Api.Reply missing = api.send("GET", "/v1/seats/pool?product=" + product, null, Map.of());
        for (Api.Reply reply : new Api.Reply[] {unknown, wrongProduct, missing}) {
            assertEquals(401, reply.status(), reply.toString());
            assertEquals("application/problem+json", reply.contentType());
            assertEquals("https://keyright.dev/problems/invalid-license", reply.json().getString("type"));
        }
        assertEquals(unknown.body(), wrongProduct.body());
        assertEquals(unknown.body(), missing.body());
    }

    @Test
    void repeatedInvalidKeysFromOneAddressAreSlowedThenRefusedWhileOthersGoOn() {
        Api api = api();
        String product = product();
        String key = api.createLicense(product, 2, 60, 5).getString("licenseKey");
        Map<String, String> guesser = Map.of("X-Forwarded-For", "203.0.113.66");
        int refusedAt = -1;
        Api.Reply refused = null;
        for (int attempt = 1; attempt <= 25 && refusedAt < 0; attempt++) {
            Api.Reply reply = api.acquire(product, "GUESS-" + attempt, "inst-guess", guesser);
            if (reply.status() == 429) {
                refusedAt = attempt;
                refused = reply;
            } else {
                assertEquals(401, reply.status(), reply.toString());
            }
        }
        assertEquals(21, refusedAt, "20 failures are allowed in the window (KEYRIGHT_AUTH_FAILURE_LIMIT)");
        assertEquals("https://keyright.dev/problems/too-many-attempts", refused.json().getString("type"));
        assertTrue(Integer.parseInt(refused.header("Retry-After")) > 0);
        assertEquals(429, api.acquire(product, key, "inst-guess", guesser).status(), "even a right key, from that address");
        assertEquals(201, api.acquire(product, key, "inst-elsewhere", Map.of("X-Forwarded-For", "203.0.113.67")).status(),
                "a correct key from another address is unaffected");
    }

    @Test
    void oneProductsMisconfiguredInstallBehindAnOfficeNatDoesNotLockOutAnotherProduct() {
        Api api = api();
        String cad = product();
        String render = product();
        api.createLicense(cad, 2, 60, 5);
        String renderKey = api.createLicense(render, 2, 60, 5).getString("licenseKey");
        Map<String, String> office = Map.of("X-Forwarded-For", "203.0.113.90");
        int refused = 0;
        for (int attempt = 1; attempt <= 22; attempt++) {
            refused += api.acquire(cad, "CAD-WRONG-KEY", "inst-cad-1", office).status() == 429 ? 1 : 0;
        }
        assertEquals(2, refused, "the misconfigured install's product is locked out from that address after 20 failures");
        Api.Reply valid = api.acquire(render, renderKey, "inst-render-1", office);
        assertEquals(201, valid.status(), "a valid install of another product behind the same address is served: " + valid);
        assertEquals(200, api.pool(render, renderKey).status());
    }

    @Test
    void anAddressInATrustedNetworkHasItsOwnHigherLimits() {
        Api api = api();
        String product = product();
        String key = api.createLicense(product, 2, 60, 5).getString("licenseKey");
        Map<String, String> trusted = Map.of("X-Forwarded-For", "203.0.113.200"); // KEYRIGHT_AUTH_TRUSTED_NETWORKS (pom.xml)
        for (int attempt = 1; attempt <= 25; attempt++) {
            assertEquals(401, api.acquire(product, "WRONG-" + attempt, "inst-t", trusted).status(),
                    "attempt " + attempt + " is within the trusted network's limit (KEYRIGHT_AUTH_TRUSTED_FAILURE_LIMIT, 400)");
        }
        assertEquals(201, api.acquire(product, key, "inst-t", trusted).status());
    }

    @Test
    void repeatedWrongAdminPasswordsFromOneAddressAreSlowedThenRefusedWhileOthersGoOn() {
        Api api = api();
        String guesser = "203.0.113.77";
        int refusedAt = -1;
        Api.Reply refused = null;
        for (int attempt = 1; attempt <= 25 && refusedAt < 0; attempt++) {
            Api.Reply reply = api.send("GET", "/v1/admin/licenses", null, Map.of("X-Forwarded-For", guesser,
                    "Authorization", basic("admin:guess-" + attempt)));
            if (reply.status() == 429) {
                refusedAt = attempt;
                refused = reply;
            } else {
                assertEquals(401, reply.status(), reply.toString());
            }
        }
        assertEquals(21, refusedAt, "20 wrong credentials are allowed in the window (KEYRIGHT_AUTH_FAILURE_LIMIT)");
        assertEquals("application/problem+json", refused.contentType().replace(";charset=UTF-8", ""));
        assertEquals("https://keyright.dev/problems/too-many-attempts", refused.json().getString("type"));
        assertTrue(refused.json().getString("detail").contains("admin credentials"), refused.body());
        assertTrue(Integer.parseInt(refused.header("Retry-After")) > 0);
        assertEquals(429, api.send("GET", "/v1/admin/licenses", null, Map.of("X-Forwarded-For", guesser,
                "Authorization", basic("admin:" + Api.ADMIN_PASSWORD))).status(), "even the right password, from that address");
        assertEquals(401, api.send("GET", "/v1/admin/licenses", null, Map.of("X-Forwarded-For", guesser)).status(),
                "no credential is no guess: the usual challenge");
        assertEquals(200, api.admin("GET", "/v1/admin/licenses", null).status(), "the admin elsewhere is unaffected");
    }

    private static String basic(String userAndPassword) {
        return "Basic " + java.util.Base64.getEncoder().encodeToString(userAndPassword.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void adminApiNeedsTheAdminRole() {
        Api api = api();
        Api.Reply anonymous = api.send("GET", "/v1/admin/licenses", null, Map.of());
        Api.Reply wrong = api.send("GET", "/v1/admin/licenses", null,
                Map.of("Authorization", "Basic " + java.util.Base64.getEncoder().encodeToString("admin:wrong-password".getBytes())));
        assertEquals(401, anonymous.status());
        assertEquals(401, wrong.status());
        assertEquals("application/problem+json", anonymous.contentType().replace(";charset=UTF-8", ""));
        assertEquals(200, api.admin("GET", "/v1/admin/licenses", null).status());
        assertNull(api.admin("GET", "/v1/admin/licenses", null).header("X-Powered-By"));
    }
}
