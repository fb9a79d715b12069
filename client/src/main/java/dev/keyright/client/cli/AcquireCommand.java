package dev.keyright.client.cli;

import org.jose4j.json.JsonUtil;
import dev.keyright.client.KeyrightClient;
import dev.keyright.client.Lease;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code acquire}: takes a seat for a script and prints its lease id (or the lease as JSON). The
 * seat is not kept alive: renew it with {@code renew LEASE_ID} within its TTL, release it when done.
 */
final class AcquireCommand {

    private final KeyrightClient client;
    private final CliOptions options;
    private final Messages messages;
    private final PrintStream out;

    AcquireCommand(KeyrightClient client, CliOptions options, Messages messages, PrintStream out) {
        this.client = client;
        this.options = options;
        this.messages = messages;
        this.out = out;
    }

    int acquire() {
        print(acquireWithin(client, options, messages));
        return ExitCodes.OK;
    }

    /** Acquires at once, or waits up to {@code --wait} for a seat to free up. */
    static Lease acquireWithin(KeyrightClient client, CliOptions options, Messages messages) {
        if (options.wait.isZero()) return client.acquireSeat();
        return client.acquireSeatWaiting(options.wait, messages::waiting);
    }

    /** Prints a lease: its id alone for people and {@code $(...)}, or every member with {@code --json}. */
    void print(Lease lease) {
        if (!options.json) {
            out.println(lease.leaseId());
            return;
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("leaseId", lease.leaseId());
        json.put("token", lease.token());
        json.put("expiresAt", lease.expiresAt().toString());
        json.put("ttlSeconds", lease.ttlSeconds());
        json.put("renewAfterSeconds", lease.renewAfterSeconds());
        json.put("seatsInUse", lease.seatsInUse());
        json.put("maxSeats", lease.maxSeats());
        out.println(JsonUtil.toJson(json));
    }
}
