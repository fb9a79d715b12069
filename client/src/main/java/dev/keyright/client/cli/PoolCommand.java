package dev.keyright.client.cli;

import org.jose4j.json.JsonUtil;
import dev.keyright.client.KeyrightClient;
import dev.keyright.client.SeatPool;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** {@code pool}: who holds the license's seats now. */
final class PoolCommand {

    private final KeyrightClient client;
    private final CliOptions options;
    private final PrintStream out;

    PoolCommand(KeyrightClient client, CliOptions options, PrintStream out) {
        this.client = client;
        this.options = options;
        this.out = out;
    }

    int show() {
        SeatPool pool = client.getSeatPool();
        if (options.json) {
            out.println(JsonUtil.toJson(toJson(pool)));
            return ExitCodes.OK;
        }
        out.println(pool.product() + ": " + pool.inUse() + " of " + pool.max() + " seats in use");
        for (SeatPool.Holder holder : pool.holders()) {
            out.println("  " + label(holder) + "  since " + holder.acquiredAt()
                    + "  until " + holder.expiresAt());
        }
        return ExitCodes.OK;
    }

    private static String label(SeatPool.Holder holder) {
        return label(holder.user(), holder.host());
    }

    /** How a holder or waiter is shown: user@host, either alone, or "(unnamed)" when it said neither. */
    static String label(String user, String host) {
        if (user == null && host == null) return "(unnamed)";
        if (host == null) return user;
        return (user == null ? "" : user) + "@" + host;
    }

    private static Map<String, Object> toJson(SeatPool pool) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("product", pool.product());
        json.put("inUse", pool.inUse());
        json.put("max", pool.max());
        List<Map<String, Object>> holders = pool.holders().stream().map(h -> {
            Map<String, Object> holder = new LinkedHashMap<>();
            holder.put("user", h.user());
            holder.put("host", h.host());
            holder.put("acquiredAt", h.acquiredAt() == null ? null : h.acquiredAt().toString());
            holder.put("expiresAt", h.expiresAt() == null ? null : h.expiresAt().toString());
            return holder;
        }).collect(Collectors.toList());
        json.put("holders", holders);
        return json;
    }
}
