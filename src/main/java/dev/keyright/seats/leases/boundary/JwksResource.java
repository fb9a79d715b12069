package dev.keyright.seats.leases.boundary;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.CacheControl;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** The public keys that verify lease tokens (RFC 7517). No authentication. */
@ApplicationScoped // one instance: no resource and no EJB proxy built per request
@Path(".well-known/jwks.json")
public class JwksResource {

    @EJB
    SigningKeys signingKeys;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response jwks() {
        CacheControl cache = new CacheControl();
        cache.setMaxAge(300);
        return Response.ok(signingKeys.jwks()).cacheControl(cache).build();
    }
}
