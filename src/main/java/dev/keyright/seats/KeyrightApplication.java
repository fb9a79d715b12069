package dev.keyright.seats;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** Keyright Seats is served at the root context: {@code POST /v1/seats/acquire}. */
@ApplicationPath("/")
public class KeyrightApplication extends Application {

    /** {@code Location} headers stay as the server wrote them (relative), so a replay on another node is byte for byte the same. */
    @Override
    public java.util.Map<String, Object> getProperties() {
        return java.util.Map.of("jersey.config.server.headers.location.relative.resolution.disabled", true,
                // No WADL: OPTIONS and /application.wadl would tell strangers every route and the Jersey version.
                "jersey.config.server.wadl.disableWadl", true);
    }
}
