package dev.keyright.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The real server over HTTP/1.1 with keep-alive, against 127.0.0.1 only. Each worker thread uses one of
 * {@code bench.httpClients} shared {@code java.net.http.HttpClient}s ({@code bench.client=jdk}, the default), whose
 * pool keeps one connection per concurrently busy thread, or has its own {@link PlainHttp} connection
 * ({@code bench.client=plain}). Set-up calls use an HttpClient either way.
 */
final class HttpTarget implements SeatTarget {

    private static final Pattern LEASE_ID = Pattern.compile("\"leaseId\"\\s*:\\s*\"(lease_[0-9a-f]+)\"");
    private static final Pattern LICENSE_ID = Pattern.compile("\"licenseId\"\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern LICENSE_KEY = Pattern.compile("\"licenseKey\"\\s*:\\s*\"([^\"]+)\"");
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final URI base;
    private final String adminAuthorization;
    private final boolean idempotencyKeys;
    private final int setupThreads;
    private final HttpClient[] clients;
    private final boolean plain;
    private final AtomicInteger nextClient = new AtomicInteger();

    HttpTarget(URI base, String adminUser, String adminPassword, int clients, boolean plain, boolean idempotencyKeys, int setupThreads) {
        if (!"127.0.0.1".equals(base.getHost())) {
            throw new IllegalArgumentException("the benchmark talks to 127.0.0.1 only, not " + base);
        }
        this.base = base;
        this.adminAuthorization = "Basic " + Base64.getEncoder()
                .encodeToString((adminUser + ":" + adminPassword).getBytes(StandardCharsets.UTF_8));
        this.idempotencyKeys = idempotencyKeys;
        this.plain = plain;
        this.setupThreads = setupThreads;
        this.clients = new HttpClient[clients];
        for (int i = 0; i < clients; i++) {
            this.clients[i] = newClient();
        }
    }

    static HttpClient newClient() {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    @Override
    public String name() {
        return "server";
    }

    @Override
    public Session open() {
        if (plain) {
            return new PlainSession(new PlainHttp(base.getHost(), base.getPort()));
        }
        return new HttpSession(clients[Math.floorMod(nextClient.getAndIncrement(), clients.length)]);
    }

    private String acquireBody(License license, String clientInstanceId) {
        return "{\"product\":\"" + license.product() + "\",\"licenseKey\":\"" + license.key()
                + "\",\"clientInstanceId\":\"" + clientInstanceId + "\"}";
    }

    @Override
    public List<License> createLicenses(String product, int count, int seats, int ttlSeconds) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(setupThreads, count));
        try {
            List<Future<License>> futures = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String name = count == 1 ? product : product + "-" + i;
                futures.add(pool.submit(() -> createLicense(name, seats, ttlSeconds)));
            }
            List<License> licenses = new ArrayList<>(count);
            for (Future<License> f : futures) {
                licenses.add(f.get(60, TimeUnit.SECONDS));
            }
            return licenses;
        } finally {
            pool.shutdownNow();
        }
    }

    private License createLicense(String product, int seats, int ttlSeconds) throws Exception {
        String body = "{\"product\":\"" + product + "\",\"seats\":" + seats + ",\"ttlSeconds\":" + ttlSeconds + "}";
        HttpResponse<String> response = clients[0].send(HttpRequest.newBuilder(base.resolve("/v1/admin/licenses"))
                .timeout(REQUEST_TIMEOUT)
                .header("Authorization", adminAuthorization)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 201) {
            throw new IllegalStateException("creating license " + product + ": HTTP " + response.statusCode() + " " + response.body());
        }
        return new License(group(LICENSE_ID, response.body()), product, group(LICENSE_KEY, response.body()), null, seats);
    }

    @Override
    public void changeTtl(License license, int ttlSeconds) throws Exception {
        HttpResponse<String> response = clients[0].send(HttpRequest.newBuilder(base.resolve("/v1/admin/licenses/" + license.id()))
                .timeout(REQUEST_TIMEOUT)
                .header("Authorization", adminAuthorization)
                .header("Content-Type", "application/json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"ttlSeconds\":" + ttlSeconds + "}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("PATCH license " + license.id() + ": HTTP " + response.statusCode() + " " + response.body());
        }
    }

    @Override
    public void close() {
        // HttpClient (Java 17) has no close(); its threads are daemons and its idle connections time out.
    }

    private static String group(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        if (!m.find()) {
            throw new IllegalStateException("no " + pattern + " in " + text);
        }
        return m.group(1);
    }

    /** A renew and a release are each one POST with the license key: the two clients differ only in how they send it. */
    private abstract static class SeatCalls implements Session {

        @Override
        public Call renew(License license, String leaseId) {
            return post(license, "/v1/seats/" + leaseId + "/renew");
        }

        @Override
        public Call release(License license, String leaseId) {
            return post(license, "/v1/seats/" + leaseId + "/release");
        }

        /** POST {@code path} with {@code Authorization: License <key>}; the body (a renew's signed token) is read in full, as a client would, then dropped. */
        abstract Call post(License license, String path);

        /** An acquire's answer: granted (200 or 201) with the lease id its body names, or counted under its status. */
        static Call acquired(int status, String body) {
            if (status == 201 || status == 200) {
                Matcher m = LEASE_ID.matcher(body);
                return m.find() ? Call.granted(status, m.group(1)) : Call.of(-2);
            }
            return Call.of(status);
        }
    }

    private final class HttpSession extends SeatCalls {

        private final HttpClient client;

        HttpSession(HttpClient client) {
            this.client = client;
        }

        @Override
        public Call acquire(License license, String clientInstanceId) {
            String body = acquireBody(license, clientInstanceId);
            HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve("/v1/seats/acquire"))
                    .timeout(REQUEST_TIMEOUT)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body));
            if (idempotencyKeys) {
                request.header("Idempotency-Key", UUID.randomUUID().toString());
            }
            try {
                HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
                return acquired(response.statusCode(), response.body());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Call.failed(e);
            } catch (Exception e) {
                return Call.failed(e);
            }
        }

        @Override
        public Call ping() {
            HttpRequest request = HttpRequest.newBuilder(base.resolve("/.well-known/jwks.json"))
                    .timeout(REQUEST_TIMEOUT).GET().build();
            try {
                return Call.of(client.send(request, HttpResponse.BodyHandlers.ofByteArray()).statusCode());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Call.failed(e);
            } catch (Exception e) {
                return Call.failed(e);
            }
        }

        @Override
        Call post(License license, String path) {
            HttpRequest request = HttpRequest.newBuilder(base.resolve(path))
                    .timeout(REQUEST_TIMEOUT)
                    .header("Authorization", "License " + license.key())
                    .POST(HttpRequest.BodyPublishers.noBody())
                    .build();
            try {
                return Call.of(client.send(request, HttpResponse.BodyHandlers.ofByteArray()).statusCode());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Call.failed(e);
            } catch (Exception e) {
                return Call.failed(e);
            }
        }

        @Override
        public void close() {
        }
    }

    /** The same calls as {@link HttpSession}, on this worker's own {@link PlainHttp} connection. */
    private final class PlainSession extends SeatCalls {

        private final PlainHttp http;

        PlainSession(PlainHttp http) {
            this.http = http;
        }

        @Override
        public Call acquire(License license, String clientInstanceId) {
            byte[] body = acquireBody(license, clientInstanceId).getBytes(StandardCharsets.UTF_8);
            try {
                PlainHttp.Response response = idempotencyKeys
                        ? http.send("POST", "/v1/seats/acquire", body, "Content-Type", "application/json",
                                "Idempotency-Key", UUID.randomUUID().toString())
                        : http.send("POST", "/v1/seats/acquire", body, "Content-Type", "application/json");
                return acquired(response.status(), response.text());
            } catch (Exception e) {
                return Call.failed(e);
            }
        }

        @Override
        public Call ping() {
            try {
                return Call.of(http.send("GET", "/.well-known/jwks.json", null).status());
            } catch (Exception e) {
                return Call.failed(e);
            }
        }

        @Override
        Call post(License license, String path) {
            try {
                return Call.of(http.send("POST", path, null, "Authorization", "License " + license.key()).status());
            } catch (Exception e) {
                return Call.failed(e);
            }
        }

        @Override
        public void close() {
            http.close();
        }
    }
}
