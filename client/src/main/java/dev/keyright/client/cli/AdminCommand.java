package dev.keyright.client.cli;

import java.io.Console;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jose4j.json.JsonUtil;
import org.jose4j.lang.JoseException;

/**
 * {@code admin status|licenses|pool|revoke|usage}: what {@code lmstat -a} and {@code lmremove} are to FlexNet
 * administrators, over the admin API with HTTP Basic credentials ({@code KEYRIGHT_ADMIN_USER}, default
 * {@code admin}; {@code KEYRIGHT_ADMIN_PASSWORD}, or a prompt on a terminal). Tables for people; with
 * {@code --json}, the server's own JSON.
 */
final class AdminCommand {

    private static final Map<String, Integer> ARGUMENTS = Map.of("status", 0, "licenses", 0, "pool", 1, "revoke", 2, "usage", 1);

    private final CliOptions options;
    private final Map<String, String> environment;
    private final PrintStream out;
    private final PrintStream err;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    AdminCommand(CliOptions options, Map<String, String> environment, PrintStream out, PrintStream err) {
        this.options = options;
        this.environment = environment;
        this.out = out;
        this.err = err;
    }

    static void checkArguments(List<String> arguments) throws UsageException {
        if (arguments.isEmpty() || !ARGUMENTS.containsKey(arguments.get(0))) {
            throw new UsageException("admin needs one of: status, licenses, pool, revoke, usage");
        }
        String command = arguments.get(0);
        int expected = ARGUMENTS.get(command);
        if (arguments.size() - 1 != expected) {
            throw new UsageException("admin " + command + (expected == 0 ? " takes no arguments"
                    : expected == 1 ? " needs one LICENSE_ID" : " needs a LICENSE_ID and a LEASE_ID"));
        }
    }

    int run() {
        String password = password();
        if (password == null) {
            err.println("keyright-client: admin commands need the admin password: set KEYRIGHT_ADMIN_PASSWORD or run on a terminal");
            return ExitCodes.USAGE;
        }
        String credentials = "Basic " + Base64.getEncoder().encodeToString(
                (environment.getOrDefault("KEYRIGHT_ADMIN_USER", "admin") + ":" + password).getBytes(StandardCharsets.UTF_8));
        List<String> args = options.arguments;
        try {
            switch (args.get(0)) {
                case "status": return status(credentials);
                case "licenses": return licenses(credentials);
                case "pool": return pool(credentials, args.get(1));
                case "revoke": return revoke(credentials, args.get(1), args.get(2));
                default: return usage(credentials, args.get(1));
            }
        } catch (Refused refused) {
            err.println("keyright-client: " + refused.getMessage());
            return refused.exitCode;
        }
    }

    private String password() {
        String password = environment.get("KEYRIGHT_ADMIN_PASSWORD");
        if (password != null && !password.isEmpty()) return password;
        Console console = System.console();
        if (console == null) return null;
        char[] typed = console.readPassword("Admin password for %s: ", options.server);
        return typed == null || typed.length == 0 ? null : new String(typed);
    }

    private int status(String credentials) throws Refused {
        String body = send("GET", "/v1/admin/licenses", credentials);
        if (options.json) return print(body);
        List<Map<String, Object>> licenses = list(read(body).get("licenses"));
        out.println("Keyright Seats at " + options.server + ": " + licenses.size() + (licenses.size() == 1 ? " license" : " licenses"));
        for (Map<String, Object> license : licenses) {
            Map<String, Object> pool = map(license.get("pool"));
            out.println();
            out.println(license.get("product") + " (" + license.get("licenseId") + "): " + pool.get("inUse") + " of "
                    + license.get("seats") + " seats in use" + queued(pool) + suspended(license));
            holders(pool);
        }
        return ExitCodes.OK;
    }

    private int licenses(String credentials) throws Refused {
        String body = send("GET", "/v1/admin/licenses", credentials);
        if (options.json) return print(body);
        Table table = new Table("LICENSE", "PRODUCT", "IN USE", "SEATS", "QUEUED", "STATUS", "CUSTOMER");
        for (Map<String, Object> license : list(read(body).get("licenses"))) {
            Map<String, Object> pool = map(license.get("pool"));
            table.row(license.get("licenseId"), license.get("product"), pool.get("inUse"), license.get("seats"),
                    pool.get("queued"), license.get("status"), license.get("customer") == null ? "" : license.get("customer"));
        }
        table.print(out);
        return ExitCodes.OK;
    }

    private int pool(String credentials, String licenseId) throws Refused {
        String body = send("GET", "/v1/admin/licenses/" + segment(licenseId), credentials);
        if (options.json) return print(body);
        Map<String, Object> license = read(body);
        Map<String, Object> pool = map(license.get("pool"));
        out.println(license.get("product") + " (" + license.get("licenseId") + "): " + pool.get("inUse") + " of "
                + license.get("seats") + " seats in use" + queued(pool) + suspended(license));
        holders(pool);
        List<Map<String, Object>> waiting = list(pool.get("waiting"));
        if (!waiting.isEmpty()) {
            out.println("  waiting:");
            for (Map<String, Object> waiter : waiting) {
                out.println("    " + waiter.get("position") + ". " + who(waiter) + "  since " + waiter.get("since")
                        + "  install " + waiter.get("clientInstanceId"));
            }
        }
        return ExitCodes.OK;
    }

    private int revoke(String credentials, String licenseId, String leaseId) throws Refused {
        long blockSeconds = options.block.toSeconds();
        send("DELETE", "/v1/admin/licenses/" + segment(licenseId) + "/leases/" + segment(leaseId)
                + (blockSeconds > 0 ? "?blockSeconds=" + blockSeconds : ""), credentials);
        if (options.json) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("revoked", leaseId);
            json.put("licenseId", licenseId);
            json.put("blockSeconds", blockSeconds);
            out.println(JsonUtil.toJson(json));
        } else {
            out.println("Revoked " + leaseId + " of " + licenseId + (blockSeconds > 0
                    ? "; that install is refused for " + blockSeconds + " s." : "; the seat is free."));
        }
        return ExitCodes.OK;
    }

    private int usage(String credentials, String licenseId) throws Refused {
        StringBuilder query = new StringBuilder();
        parameter(query, "from", options.from);
        parameter(query, "to", options.to);
        parameter(query, "bucket", options.bucket);
        String body = send("GET", "/v1/admin/licenses/" + segment(licenseId) + "/usage" + query, credentials);
        if (options.json) return print(body);
        Map<String, Object> usage = read(body);
        out.println(usage.get("product") + " (" + usage.get("licenseId") + "), " + usage.get("maxSeats") + " seats, per "
                + usage.get("bucket") + " from " + usage.get("from") + " to " + usage.get("to"));
        Table table = new Table("START", "PEAK", "OVERDRAFT", "ACQUIRED", "DENIED", "EXPIRED", "RELEASED", "REVOKED");
        for (Map<String, Object> bucket : list(usage.get("buckets"))) {
            table.row(bucket.get("start"), bucket.get("peakInUse"), bucket.get("peakOverdraft"), bucket.get("acquisitions"),
                    bucket.get("denials"), bucket.get("expiries"), bucket.get("releases"), bucket.get("revocations"));
        }
        table.print(out);
        return ExitCodes.OK;
    }

    private void holders(Map<String, Object> pool) {
        for (Map<String, Object> holder : list(pool.get("holders"))) {
            out.println("    " + who(holder) + "  since " + holder.get("acquiredAt") + "  until " + holder.get("expiresAt")
                    + "  " + holder.get("leaseId") + "  install " + holder.get("clientInstanceId")
                    + (Boolean.TRUE.equals(holder.get("overdraft")) ? "  (overdraft)" : "")
                    + (holder.get("releasedAt") != null ? "  (released, lingering)" : ""));
        }
    }

    private static String who(Map<String, Object> holder) {
        return PoolCommand.label((String) holder.get("user"), (String) holder.get("host"));
    }

    private static String queued(Map<String, Object> pool) {
        Object queued = pool.get("queued");
        return queued instanceof Number n && n.longValue() > 0 ? ", " + n + " waiting" : "";
    }

    private static String suspended(Map<String, Object> license) {
        return "suspended".equals(license.get("status")) ? " (SUSPENDED)" : "";
    }

    private static void parameter(StringBuilder query, String name, String value) {
        if (value == null) return;
        query.append(query.length() == 0 ? '?' : '&').append(name).append('=').append(URLEncoder.encode(value, StandardCharsets.UTF_8));
    }

    private static String segment(String id) {
        return URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private int print(String body) {
        out.println(body);
        return ExitCodes.OK;
    }

    private String send(String method, String path, String credentials) throws Refused {
        String base = options.server.toString();
        URI uri = URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + path);
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                .header("Authorization", credentials).header("Accept", "application/json")
                .method(method, HttpRequest.BodyPublishers.noBody()).build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new Refused("cannot reach " + options.server + ": " + e, ExitCodes.NO_SEAT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Refused("interrupted", ExitCodes.FAILURE);
        }
        int status = response.statusCode();
        if (status / 100 == 2) return response.body();
        String detail = problemDetail(response.body());
        if (status == 401) throw new Refused("the admin credentials were refused (401)" + detail, ExitCodes.LICENSE_REFUSED);
        if (status == 404) throw new Refused("not found (404)" + detail, ExitCodes.FAILURE);
        if (status == 400) throw new Refused("the server refused the request (400)" + detail, ExitCodes.REQUEST_REFUSED);
        throw new Refused("the server answered " + status + detail, status == 429 || status == 503 ? ExitCodes.NO_SEAT : ExitCodes.FAILURE);
    }

    private static String problemDetail(String body) {
        try {
            Object detail = JsonUtil.parseJson(body).get("detail");
            return detail == null ? "" : ": " + detail;
        } catch (JoseException | RuntimeException e) {
            return "";
        }
    }

    private static Map<String, Object> read(String body) throws Refused {
        try {
            return JsonUtil.parseJson(body);
        } catch (JoseException e) {
            throw new Refused("unreadable answer from the server: " + e.getMessage(), ExitCodes.UNTRUSTED_ANSWER);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value instanceof Map ? (Map<String, Object>) value : Map.of();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Object value) {
        return value instanceof List ? (List<Map<String, Object>>) value : List.of();
    }

    /** A failed admin call: the message for the terminal and the exit code. */
    private static final class Refused extends Exception {
        final int exitCode;

        Refused(String message, int exitCode) {
            super(message);
            this.exitCode = exitCode;
        }
    }
}
