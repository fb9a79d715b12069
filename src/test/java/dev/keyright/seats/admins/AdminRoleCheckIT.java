package dev.keyright.seats.admins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.testing.Api;
import dev.keyright.seats.testing.Deployments;
import dev.keyright.seats.testing.MariaDb;
import dev.keyright.seats.testing.Tables;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Defence in depth: the WAR with the admin's authentication filter mapped to {@code /v1/admin/licenses} alone, as
 * if its other URL patterns failed to match. The admin resources check the role themselves, so every admin route
 * still wants credentials, and where the filter does not run nobody gets in: the administrator neither.
 */
@ExtendWith({MariaDb.class, ArquillianExtension.class})
@RunAsClient
class AdminRoleCheckIT {

    @ArquillianResource
    URL base;

    @Deployment(testable = false)
    static WebArchive deployment() {
        WebArchive war = Deployments.seats();
        String webXml = read(war.get("WEB-INF/web.xml").getAsset().openStream());
        String unguarded = webXml.replaceAll("(?s)(<filter-name>dev\\.keyright\\.seats\\.admins\\.boundary\\.AdminAuthentication</filter-name>\\s*)"
                + "<url-pattern>/v1/admin/\\*</url-pattern>\\s*<url-pattern>/admin/\\*</url-pattern>\\s*<url-pattern>/admin</url-pattern>",
                "$1<url-pattern>/v1/admin/licenses</url-pattern>");
        if (unguarded.equals(webXml)) {
            throw new IllegalStateException("web.xml maps the admin's authentication otherwise: " + webXml);
        }
        war.delete("WEB-INF/web.xml");
        return war.setWebXML(new StringAsset(unguarded));
    }

    @Test
    void everyAdminRouteChecksTheRoleOnTheResourceItself() {
        Api api = new Api(base);
        String licenseId = api.createLicense("role-check", 2, 60, 5).getString("licenseId");
        String before = Tables.snapshot();
        List<String[]> routes = List.of(
                new String[] {"GET", "/v1/admin/licenses", null},
                new String[] {"GET", "/v1/admin/licenses/" + licenseId, null},
                new String[] {"POST", "/v1/admin/licenses", "{\"product\":\"sneaky\",\"seats\":9}"},
                new String[] {"PATCH", "/v1/admin/licenses/" + licenseId, "{\"status\":\"suspended\"}"},
                new String[] {"DELETE", "/v1/admin/licenses/" + licenseId + "/leases/lease_00000000000000000000000000000000", null},
                new String[] {"GET", "/v1/admin/licenses/" + licenseId + "/usage", null},
                new String[] {"GET", "/admin/", null},
                new String[] {"GET", "/admin/admin.js", null});
        for (String[] route : routes) {
            Api.Reply reply = api.send(route[0], route[1], route[2],
                    route[2] == null ? Map.of() : Map.of("Content-Type", "application/json"));
            assertRefused(route, reply);
            if (!route[1].equals("/v1/admin/licenses")) {
                assertRefused(route, api.admin(route[0], route[1], route[2])); // no filter ran: no caller, whatever the header
            }
        }
        assertEquals(before, Tables.snapshot(), "nothing was created, changed or revoked");
        assertEquals(200, api.admin("GET", "/v1/admin/licenses", null).status(), "the administrator gets in where the filter runs");
    }

    private static void assertRefused(String[] route, Api.Reply reply) {
        assertEquals(401, reply.status(), route[0] + " " + route[1] + ": " + reply);
        assertTrue(reply.contentType().startsWith("application/problem+json"), reply.toString());
        assertTrue(String.valueOf(reply.header("WWW-Authenticate")).startsWith("Basic"), reply.toString());
        assertFalse(reply.body().contains("licenseKey") || reply.body().contains("role-check"), reply.body());
    }

    private static String read(InputStream in) {
        try (in) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            return out.toString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
