package dev.keyright.seats.leases.boundary;

import dev.keyright.seats.leases.control.CurrentKeys;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.CacheControl;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** The public keys that verify lease tokens (RFC 7517). No authentication. */
@ApplicationScoped // one instance: no resource built per request, and the key set read without an EJB call
@Path(".well-known/jwks.json")
public class JwksResource {

    @Inject
    CurrentKeys currentKeys;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response jwks() {
        CacheControl cache = new CacheControl();
        cache.setMaxAge(300);
        return Response.ok(currentKeys.jwks()).cacheControl(cache).build();
    }
}
