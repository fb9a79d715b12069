package dev.keyright.seats.problems;

import jakarta.json.spi.JsonProvider;

/**
 * The one JSON-P provider, looked up once. {@code jakarta.json.Json}'s static factories look the
 * provider up through the service loader on every call, which under an application server's class
 * loaders costs more than the rest of a heartbeat.
 */
public final class JsonProviders {

    public static final JsonProvider JSON = JsonProvider.provider();

    private JsonProviders() {
    }
}
