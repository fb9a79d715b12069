package dev.keyright.client.cli;

import dev.keyright.client.ClockRolledBackException;
import dev.keyright.client.KeyrightException;
import dev.keyright.client.OfflineLicense;
import dev.keyright.client.OfflineLicenseExpiredException;
import dev.keyright.client.OfflineLicenseInvalidException;
import dev.keyright.client.OfflineLicenseNotFoundException;
import dev.keyright.client.WrongMachineException;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jose4j.json.JsonUtil;

/**
 * {@code status}: what this machine holds away from the server, checked as the app would check it, with no
 * network, no server and no license key: the borrowed seat (until when) and the activation (its id, fingerprint
 * and until when it runs offline). Exits 0 when all it holds passes, {@link ExitCodes#OFFLINE_REFUSED} when
 * something fails its check (and says why), {@link ExitCodes#NOT_HELD} when it holds nothing.
 */
final class StatusCommand {

    /** One stored license as checked: {@code json} null when there is none. */
    private record Checked(Map<String, Object> json, String line, boolean refused) {
        static final Checked NONE = new Checked(null, "none", false);
    }

    private final OfflineLicense offline;
    private final CliOptions options;
    private final PrintStream out;

    StatusCommand(OfflineLicense offline, CliOptions options, PrintStream out) {
        this.offline = offline;
        this.options = options;
        this.out = out;
    }

    int show() {
        Checked borrowed = check(offline::checkBorrowedSeat,
                seat -> members("leaseId", seat.leaseId(), "borrowedUntil", seat.borrowedUntil().toString()),
                seat -> seat.leaseId() + ", until " + seat.borrowedUntil());
        Checked activation = check(offline::checkActivation, ActivationCommand::describe,
                a -> a.activationId() + ", fingerprint " + a.fingerprint() + ", usable offline until " + a.expiresAt());
        if (options.json) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("product", options.product);
            json.put("store", offline.storeFile().toString());
            json.put("borrowed", borrowed.json());
            json.put("activation", activation.json());
            out.println(JsonUtil.toJson(json));
        } else {
            out.println(options.product + " (offline store " + offline.storeFile() + "):");
            out.println("  borrowed seat: " + borrowed.line());
            out.println("  activation: " + activation.line());
        }
        if (borrowed.refused() || activation.refused()) return ExitCodes.OFFLINE_REFUSED;
        return borrowed.json() == null && activation.json() == null ? ExitCodes.NOT_HELD : ExitCodes.OK;
    }

    private static <T> Checked check(Supplier<T> check, Function<T, Map<String, Object>> facts,
                                     Function<T, String> line) {
        try {
            T held = check.get();
            Map<String, Object> json = members("valid", true);
            json.putAll(facts.apply(held));
            return new Checked(json, line.apply(held), false);
        } catch (OfflineLicenseNotFoundException none) {
            return Checked.NONE;
        } catch (KeyrightException refused) {
            Map<String, Object> json = members("valid", false, "reason", reason(refused), "message", refused.getMessage());
            if (refused instanceof OfflineLicenseExpiredException expired) {
                json.put("expiredAt", expired.expiredAt().toString());
            }
            if (refused instanceof ClockRolledBackException rolledBack) {
                json.put("lastSeen", rolledBack.lastSeen().toString());
                json.put("now", rolledBack.now().toString());
            }
            return new Checked(json, "refused: " + Failures.sentence(refused.getMessage()), true);
        }
    }

    private static String reason(KeyrightException refused) {
        if (refused instanceof OfflineLicenseExpiredException) return "expired";
        if (refused instanceof ClockRolledBackException) return "clock-rolled-back";
        if (refused instanceof WrongMachineException) return "wrong-machine";
        if (refused instanceof OfflineLicenseInvalidException) return "invalid";
        return "error";
    }

    private static Map<String, Object> members(Object... pairs) {
        Map<String, Object> json = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) json.put((String) pairs[i], pairs[i + 1]);
        return json;
    }
}
