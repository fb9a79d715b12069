package dev.keyright.seats.monitoring.boundary;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * {@code GET /v1/openapi.yaml}: the OpenAPI 3.1 document of this API, the file
 * {@code META-INF/keyright-openapi.yaml}, on any server. MicroProfile OpenAPI's own {@code /openapi} cannot carry
 * it: Payara 6's implementation reads OpenAPI 3.0 only (it fails on 3.1's type arrays), and GlassFish has none.
 * The integration tests check every request and answer they exchange against this document.
 */
@ApplicationScoped
@Path("v1/openapi.yaml")
public class OpenApiResource {

    static final String DOCUMENT = "META-INF/keyright-openapi.yaml";
    static final String MEDIA_TYPE = "application/yaml"; // RFC 9512

    private final byte[] document = read();

    @GET
    @Produces(MEDIA_TYPE)
    public Response document() {
        return Response.ok(document, MEDIA_TYPE + "; charset=UTF-8").header("Cache-Control", "no-cache").build();
    }

    private static byte[] read() {
        try (InputStream in = OpenApiResource.class.getClassLoader().getResourceAsStream(DOCUMENT)) {
            if (in == null) {
                throw new IllegalStateException(DOCUMENT + " is missing from the application");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
