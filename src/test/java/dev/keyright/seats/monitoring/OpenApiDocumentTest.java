package dev.keyright.seats.monitoring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.keyright.seats.testing.Contract;
import io.vertx.openapi.contract.Operation;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.net.http.HttpHeaders;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI document against the code, without a server: it is a valid OpenAPI 3.1 document (the validator
 * loads it against the 3.1 schema), it names exactly the routes the JAX-RS resources serve, and the checker the
 * integration tests run on every exchange ({@link Contract}) catches what it is there to catch. The exchanges
 * themselves are checked in every IT through {@code testing.Api}.
 */
class OpenApiDocumentTest {

    private final Contract contract = Contract.document();

    @Test
    void isAnOpenApi31Document() {
        assertEquals("3.1.0", contract.raw().getString("openapi"));
        assertTrue(contract.raw().getJsonObject("components").getJsonObject("securitySchemes").containsKey("licenseKey"));
        assertTrue(contract.raw().getJsonObject("components").getJsonObject("securitySchemes").containsKey("adminBasic"));
    }

    @Test
    void describesExactlyTheRoutesTheResourcesServe() {
        Set<String> documented = contract.operations().stream()
                .map(o -> o.getHttpMethod().name() + " " + o.getOpenAPIPath())
                .filter(route -> !route.equals("GET /admin/")) // the page's own spelling of GET /admin (a 303 to it)
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(servedRoutes(), documented);
    }

    @Test
    void everyOperationHasAnIdASummaryAndItsSecurity() {
        for (Operation operation : contract.operations()) {
            var model = operation.getOpenAPIModel();
            assertTrue(model.containsKey("summary"), operation.getOperationId());
            assertTrue(model.containsKey("security"), operation.getOperationId() + " must say who may call it");
        }
    }

    @Test
    void everyProblemTypeTheServerKnowsIsNamedInTheDocument() {
        String document = contract.text();
        java.util.Set<String> slugs = new java.util.TreeSet<>(dev.keyright.seats.problems.ProblemTypes.slugs());
        slugs.addAll(List.of("not-found", "not-acceptable", "request-timeout", "payload-too-large", "unsupported-media-type",
                "unauthorized", "forbidden", "server-error")); // answered by the mappers and the error page, not by a refusal
        for (String slug : slugs) {
            assertTrue(document.contains("https://keyright.dev/problems/" + slug), slug);
        }
    }

    @Test
    void anAnswerWithAnUndocumentedMemberBreaksTheContract() {
        String renewed = "{\"leaseId\":\"lease_0123456789abcdef0123456789abcdef\",\"token\":\"a.b.c\",\"expiresAt\":\"2026-12-04T10:00:00Z\","
                + "\"ttlSeconds\":120,\"renewAfterSeconds\":40,\"seatsInUse\":1,\"maxSeats\":2";
        contract.check("POST", "/v1/seats/lease_0123456789abcdef0123456789abcdef/renew", Map.of(), null,
                200, json("application/json"), renewed + "}");
        AssertionError broken = assertThrows(AssertionError.class, () -> contract.check("POST",
                "/v1/seats/lease_0123456789abcdef0123456789abcdef/renew", Map.of(), null,
                200, json("application/json"), renewed + ",\"secret\":1}"));
        assertTrue(broken.getMessage().contains("renewSeat"), broken.getMessage());
    }

    @Test
    void anUndocumentedStatusBreaksTheContract() {
        String problem = "{\"type\":\"https://keyright.dev/problems/lease-expired\",\"title\":\"t\",\"status\":410,\"detail\":\"d\"}";
        contract.check("POST", "/v1/seats/lease_0123456789abcdef0123456789abcdef/renew", Map.of(), null,
                410, json("application/problem+json"), problem);
        assertThrows(AssertionError.class, () -> contract.check("POST", "/v1/seats/lease_0123456789abcdef0123456789abcdef/release",
                Map.of(), null, 410, json("application/problem+json"), problem));
    }

    @Test
    void aRequestTheDocumentRefusesMustBeRefusedByTheServer() {
        String body = "{\"product\":\"acme\",\"licenseKey\":\"K\",\"clientInstanceId\":\"has space\"}";
        String invalid = "{\"type\":\"https://keyright.dev/problems/invalid-request\",\"title\":\"t\",\"status\":400,\"detail\":\"d\","
                + "\"errors\":[{\"field\":\"clientInstanceId\",\"message\":\"m\"}]}";
        contract.check("POST", "/v1/seats/acquire", Map.of("Content-Type", "application/json"), body,
                400, json("application/problem+json"), invalid);
        String lease = "{\"leaseId\":\"lease_0123456789abcdef0123456789abcdef\",\"token\":\"a.b.c\",\"expiresAt\":\"2026-12-04T10:00:00Z\","
                + "\"ttlSeconds\":120,\"renewAfterSeconds\":40,\"seatsInUse\":1,\"maxSeats\":2}";
        HttpHeaders created = HttpHeaders.of(Map.of("Content-Type", List.of("application/json"),
                "Location", List.of("/v1/seats/lease_0123456789abcdef0123456789abcdef")), (name, value) -> true);
        AssertionError accepted = assertThrows(AssertionError.class, () -> contract.check("POST", "/v1/seats/acquire",
                Map.of("Content-Type", "application/json"), body, 201, created, lease));
        assertTrue(accepted.getMessage().contains("refuses this request"), accepted.getMessage());
    }

    @Test
    void anUnknownRouteMustBeA4xxProblem() {
        String notFound = "{\"type\":\"https://keyright.dev/problems/not-found\",\"title\":\"t\",\"status\":404,\"detail\":\"d\"}";
        contract.check("GET", "/v2/nothing", Map.of(), null, 404, json("application/problem+json"), notFound);
        assertThrows(AssertionError.class, () -> contract.check("GET", "/v2/nothing", Map.of(), null, 200, json("application/json"), "{}"));
    }

    @Test
    void aPathThatIsNotCanonicalMustBeRefusedAsSuch() {
        String invalidPath = "{\"type\":\"https://keyright.dev/problems/invalid-path\",\"title\":\"t\",\"status\":400,\"detail\":\"d\"}";
        contract.check("POST", "/v1/seats/acquire;jsessionid=1", Map.of(), null, 400, json("application/problem+json"), invalidPath);
        contract.check("POST", "/v1/seats/%00/renew", Map.of(), null, 400, HttpHeaders.of(Map.of(), (n, v) -> true), "");
        assertThrows(AssertionError.class, () -> contract.check("GET", "/v1/seats/pool/..", Map.of(), null, 200,
                json("application/json"), "{}"));
    }

    @Test
    void aMissingRequiredHeaderBreaksTheContract() {
        String lease = "{\"leaseId\":\"lease_0123456789abcdef0123456789abcdef\",\"token\":\"a.b.c\",\"expiresAt\":\"2026-12-04T10:00:00Z\","
                + "\"ttlSeconds\":120,\"renewAfterSeconds\":40,\"seatsInUse\":1,\"maxSeats\":2}";
        String body = "{\"product\":\"acme\",\"licenseKey\":\"K\",\"clientInstanceId\":\"inst-1\"}";
        AssertionError noLocation = assertThrows(AssertionError.class, () -> contract.check("POST", "/v1/seats/acquire",
                Map.of("Content-Type", "application/json"), body, 201, json("application/json"), lease));
        assertTrue(noLocation.getMessage().contains("Location"), noLocation.getMessage());
    }

    private static HttpHeaders json(String contentType) {
        return HttpHeaders.of(Map.of("Content-Type", List.of(contentType)), (name, value) -> true);
    }

    /** "GET /v1/seats/{leaseId}" for every resource method of the application (JAX-RS annotations). */
    private static Set<String> servedRoutes() {
        Set<String> routes = new TreeSet<>();
        for (JavaClass type : new ClassFileImporter().withImportOption(new ImportOption.DoNotIncludeTests())
                .importPackages("dev.keyright.seats")) {
            if (!type.isAnnotatedWith(Path.class)) {
                continue;
            }
            Class<?> resource = type.reflect();
            String base = "/" + resource.getAnnotation(Path.class).value();
            for (Method method : resource.getDeclaredMethods()) {
                String verb = httpMethod(method);
                if (verb == null) {
                    continue;
                }
                Path sub = method.getAnnotation(Path.class);
                String path = sub == null ? base : base + "/" + sub.value();
                routes.add(verb + " " + path.replaceAll("\\{(\\w+):[^/]*}", "{$1}"));
            }
        }
        return routes;
    }

    private static String httpMethod(Method method) {
        for (Annotation annotation : method.getAnnotations()) {
            HttpMethod verb = annotation.annotationType().getAnnotation(HttpMethod.class);
            if (verb != null) {
                return verb.value();
            }
        }
        return null;
    }
}
