package dev.keyright.client.cli;

import dev.keyright.client.BorrowedSeat;
import dev.keyright.client.KeyrightClient;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jose4j.json.JsonUtil;

/**
 * {@code borrow DURATION} and {@code return}: FlexNet's {@code lmborrow} habit. A borrowed seat is kept in the
 * offline store ({@code $KEYRIGHT_HOME/<product>/}), where the app finds it without the network.
 */
final class BorrowCommand {

    private final KeyrightClient client;
    private final CliOptions options;
    private final PrintStream out;

    BorrowCommand(KeyrightClient client, CliOptions options, PrintStream out) {
        this.client = client;
        this.options = options;
        this.out = out;
    }

    int borrow() {
        BorrowedSeat seat = client.borrow(options.borrowFor);
        if (options.json) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("product", seat.product());
            json.put("leaseId", seat.leaseId());
            json.put("borrowedUntil", seat.borrowedUntil().toString());
            out.println(JsonUtil.toJson(json));
        } else {
            out.println("Borrowed a seat of " + seat.product() + " until " + seat.borrowedUntil() + " ("
                    + seat.leaseId() + "); 'keyright-client return' gives it back early.");
        }
        return ExitCodes.OK;
    }

    /** Gives the borrowed seat back; with nothing borrowed here, says so with {@link ExitCodes#NOT_HELD}. */
    int giveBack() {
        boolean returned = client.returnBorrowed();
        if (options.json) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("product", options.product);
            json.put("returned", returned);
            out.println(JsonUtil.toJson(json));
        } else {
            out.println(returned ? "Returned the borrowed seat of " + options.product + "."
                    : "No seat of " + options.product + " is borrowed here.");
        }
        return returned ? ExitCodes.OK : ExitCodes.NOT_HELD;
    }
}
