package dev.keyright.client.cli;

import org.jose4j.json.JsonUtil;
import dev.keyright.client.KeyrightClient;
import java.io.PrintStream;
import java.util.Map;

/** {@code release LEASE_ID}: gives a seat back. A lease that is already gone counts as released. */
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
        client.releaseSeat(leaseId);
        out.println(options.json ? JsonUtil.toJson(Map.of("released", leaseId)) : "Released " + leaseId + ".");
        return ExitCodes.OK;
    }
}
