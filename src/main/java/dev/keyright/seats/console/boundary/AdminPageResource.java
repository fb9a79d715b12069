package dev.keyright.seats.console.boundary;

import dev.keyright.seats.admins.entity.SignedOutException;

import dev.keyright.seats.admins.boundary.AdminOnly;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.Provider;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.Map;

/**
 * The admin web page at {@code /admin/}: three static files from {@code META-INF/admin-ui/} on the class
 * path, served under a strict Content-Security-Policy (the administrator only: the admin paths' authentication
 * filter, and {@code @AdminOnly}). The page itself talks to the admin API with the browser's Basic credentials.
 */
@AdminOnly
@Path("admin")
public class AdminPageResource {

    static final String FOLDER = "META-INF/admin-ui/";
    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
    private static final Map<String, String> FILES = Map.of(
            "index.html", "text/html; charset=UTF-8",
            "admin.js", "text/javascript; charset=UTF-8",
            "admin.css", "text/css; charset=UTF-8");

    @Context
    UriInfo uri;

    /** {@code /admin/} is the page; {@code /admin} sends the browser there, so relative links resolve. */
    @GET
    public Response page() {
        if (uri.getRequestUri().getRawPath().endsWith("/")) {
            return file("index.html");
        }
        return Response.seeOther(URI.create(uri.getBaseUri().getRawPath() + "admin/")).build();
    }

    @GET
    @Path("{file}")
    public Response file(@PathParam("file") String name) {
        String type = FILES.get(name);
        if (type == null) {
            throw new NotFoundException();
        }
        return Response.ok(read(name), type)
                .header("Cache-Control", name.endsWith(".html") ? "no-store" : "no-cache")
                .build();
    }

    /**
     * Sign out. HTTP Basic has no session to end: the browser keeps sending the credentials it was given. So the
     * page posts here with them and is answered 401 without a challenge: a browser drops cached Basic credentials
     * the server rejected (Chromium's HTTP auth cache evicts them; the page's test shows the next call is 401),
     * and, with no challenge, asks for none. Reloading the page asks for them again. Valid credentials were sent,
     * so this is not counted as a failed sign-in.
     */
    @POST
    @Path("logout")
    public Response logout() {
        throw new SignedOutException();
    }

    private static byte[] read(String name) {
        try (InputStream in = AdminPageResource.class.getClassLoader().getResourceAsStream(FOLDER + name)) {
            if (in == null) {
                throw new NotFoundException();
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The page's Content-Security-Policy on every answer under {@code /admin}, redirects and 404 problems
     * included (the other security headers come from the servlet filter on every response).
     */
    @Provider
    public static class SecurityHeaders implements ContainerResponseFilter {

        @Override
        public void filter(ContainerRequestContext request, ContainerResponseContext response) {
            String path = request.getUriInfo().getPath();
            if (path.startsWith("/")) {
                path = path.substring(1);
            }
            if (!path.equals("admin") && !path.startsWith("admin/")) {
                return;
            }
            response.getHeaders().putSingle("Content-Security-Policy", CSP);
        }
    }
}
