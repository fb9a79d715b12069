package dev.keyright.client.cli;

import dev.keyright.client.KeyrightClient;

/** {@code renew LEASE_ID}: extends a seat taken with {@code acquire}; prints the lease like {@code acquire}. */
final class RenewCommand {

    private final KeyrightClient client;
    private final CliOptions options;
    private final AcquireCommand printer;

    RenewCommand(KeyrightClient client, CliOptions options, AcquireCommand printer) {
        this.client = client;
        this.options = options;
        this.printer = printer;
    }

    int renew() {
        printer.print(client.renewSeat(options.arguments.get(0)));
        return ExitCodes.OK;
    }
}
