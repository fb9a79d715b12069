package dev.keyright.client.cli;

import dev.keyright.client.Activation;
import dev.keyright.client.KeyrightClient;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jose4j.json.JsonUtil;

/**
 * {@code activate [--fingerprint F]} and {@code deactivate}: a node-locked license's one slot per machine. The
 * certificate is kept in the offline store, where the app finds it without the network.
 */
final class ActivationCommand {

    private final KeyrightClient client;
    private final CliOptions options;
    private final PrintStream out;

    ActivationCommand(KeyrightClient client, CliOptions options, PrintStream out) {
        this.client = client;
        this.options = options;
        this.out = out;
    }

    int activate() {
        Activation activation = client.activate();
        if (options.json) {
            out.println(JsonUtil.toJson(describe(activation)));
        } else {
            out.println("Activated " + options.product + " on this machine (" + activation.activationId() + ", "
                    + activation.activationsInUse() + " of " + activation.maxActivations()
                    + " activations in use); usable offline until " + activation.expiresAt() + ".");
        }
        return ExitCodes.OK;
    }

    /** Frees this machine's slot; on a machine not activated, says so with {@link ExitCodes#NOT_HELD}. */
    int deactivate() {
        boolean deactivated = client.deactivate();
        if (options.json) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("product", options.product);
            json.put("deactivated", deactivated);
            out.println(JsonUtil.toJson(json));
        } else {
            out.println(deactivated ? "Deactivated " + options.product + " on this machine; its activation is free."
                    : options.product + " is not activated on this machine.");
        }
        return deactivated ? ExitCodes.OK : ExitCodes.NOT_HELD;
    }

    /** An activation's members, as {@code activate --json} and {@code status --json} print them. */
    static Map<String, Object> describe(Activation activation) {
        return new LinkedHashMap<>(activation.facts());
    }
}
