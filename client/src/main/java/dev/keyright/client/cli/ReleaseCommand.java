package dev.keyright.client.cli;

import org.jose4j.json.JsonUtil;
import dev.keyright.client.KeyrightClient;
import java.io.PrintStream;
import java.util.Map;

/**
 * {@code release LEASE_ID}: gives a seat back. A lease that was no longer held (released, expired or revoked
 * before) is said so, with its own exit code: a script that thought it held a seat learns it did not.
 */
final class ReleaseCommand {

    private final KeyrightClient client;
    private final CliOptions options;
    private final PrintStream out;

    ReleaseCommand(KeyrightClient client, CliOptions options, PrintStream out) {
        this.client = client;
        this.options = options;
        this.out = out;
    }

    int release() {
        String leaseId = options.arguments.get(0);
        if (!client.releaseSeatIfHeld(leaseId)) {
            out.println(options.json ? JsonUtil.toJson(Map.of("notHeld", leaseId))
                    : leaseId + " was not held (already released, expired or revoked); the seat is free.");
            return ExitCodes.NOT_HELD;
        }
        out.println(options.json ? JsonUtil.toJson(Map.of("released", leaseId)) : "Released " + leaseId + ".");
        return ExitCodes.OK;
    }
}
