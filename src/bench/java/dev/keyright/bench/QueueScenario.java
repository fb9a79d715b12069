package dev.keyright.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code queue} scenario (issue 14): many installs wait in one license's queue ({@code Prefer: wait}), the
 * seats stay full, and one releaser gives a seat back, waits for the 201 of the waiter it went to, and gives
 * back the next: the hand-over latency is the time from sending the release to that waiter's 201. Only one
 * release is in flight at a time, and no lease expires during the run, so each grant answers exactly one release.
 * Server only (the JDBC floor has no queue). 127.0.0.1 only; bounded by its duration.
 */
final class QueueScenario {

    private static final Pattern LEASE_ID = Pattern.compile("\"leaseId\"\\s*:\\s*\"([^\"]+)\"");

    private QueueScenario() {
    }

    record Result(int waiters, int seats, int handOvers, double p50Millis, double p99Millis, double maxMillis, int failures) {

        String line() {
            return String.format(Locale.ROOT, "p50 %.1f ms, p99 %.1f ms, max %.1f ms over %d hand-overs (%d waiters, %d seats, %d failures)",
                    p50Millis, p99Millis, maxMillis, handOvers, waiters, seats, failures);
        }

        Map<String, Object> json() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("waiters", waiters);
            json.put("seats", seats);
            json.put("handOvers", handOvers);
            json.put("handOverP50Millis", p50Millis);
            json.put("handOverP99Millis", p99Millis);
            json.put("handOverMaxMillis", maxMillis);
            json.put("failures", failures);
            return json;
        }
    }

    private record Granted(String leaseId, long nanos) {
    }

    static Result run(URI base, SeatTarget.License license, int waiters, int seconds) throws Exception {
        BlockingDeque<Granted> granted = new LinkedBlockingDeque<>();
        AtomicBoolean running = new AtomicBoolean(true);
        int[] failures = new int[1];
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < waiters; i++) {
            String install = "queue-waiter-" + i;
            HttpClient client = HttpTarget.newClient();
            Thread thread = new Thread(() -> waitForSeats(client, base, license, install, running, granted, failures), install);
            thread.setDaemon(true);
            thread.start();
            threads.add(thread);
        }
        long formed = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (granted.size() < license.seats() && System.nanoTime() < formed) {
            TimeUnit.MILLISECONDS.sleep(50); // the seats fill first (not measured)
        }
        TimeUnit.SECONDS.sleep(2); // and the other waiters line up behind them
        // every grant reaches `granted` once, as its waiter received it; the seats' holders, oldest first, are
        // kept apart in `holding`, so that the grant polled after a release is the one that release caused
        // (only one seat is freed at a time), never an earlier one
        Deque<Granted> holding = new ArrayDeque<>();
        granted.drainTo(holding);
        HttpClient releaser = HttpTarget.newClient();
        List<Long> latencies = new ArrayList<>();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        try {
            while (System.nanoTime() < end && !holding.isEmpty()) {
                Granted holder = holding.pollFirst();
                long sent = System.nanoTime();
                int status = send(releaser, HttpRequest.newBuilder(base.resolve("/v1/seats/" + holder.leaseId() + "/release"))
                        .header("Authorization", "License " + license.key())
                        .POST(HttpRequest.BodyPublishers.noBody())).statusCode();
                if (status != 204) {
                    failures[0]++;
                    continue;
                }
                Granted next = granted.poll(10, TimeUnit.SECONDS);
                if (next == null) {
                    failures[0]++;
                    continue;
                }
                latencies.add(next.nanos() - sent);
                holding.addLast(next);
            }
        } finally {
            running.set(false);
            for (Thread thread : threads) {
                thread.join(TimeUnit.SECONDS.toMillis(35));
            }
        }
        long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
        return new Result(waiters, license.seats(), sorted.length, millis(sorted, 0.50), millis(sorted, 0.99),
                sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1e6, failures[0]);
    }

    /** One install: asks with Prefer: wait=20 until granted, reports the grant, and asks again once released. */
    private static void waitForSeats(HttpClient client, URI base, SeatTarget.License license, String install,
                                     AtomicBoolean running, BlockingDeque<Granted> granted, int[] failures) {
        String body = "{\"product\":\"" + license.product() + "\",\"licenseKey\":\"" + license.key()
                + "\",\"clientInstanceId\":\"" + install + "\"}";
        String held = null;
        while (running.get()) {
            try {
                if (held != null) {
                    TimeUnit.MILLISECONDS.sleep(200); // holding a seat until the releaser gives it back
                    held = stillHeld(client, base, license, held);
                    continue;
                }
                HttpResponse<String> response = send(client, HttpRequest.newBuilder(base.resolve("/v1/seats/acquire"))
                        .timeout(Duration.ofSeconds(30))
                        .header("Content-Type", "application/json")
                        .header("Prefer", "wait=20")
                        .POST(HttpRequest.BodyPublishers.ofString(body)));
                long at = System.nanoTime();
                if (response.statusCode() == 201) {
                    Matcher m = LEASE_ID.matcher(response.body());
                    if (m.find()) {
                        held = m.group(1);
                        granted.addLast(new Granted(held, at));
                    }
                } else if (response.statusCode() != 409) {
                    synchronized (failures) {
                        failures[0]++;
                    }
                }
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                synchronized (failures) {
                    failures[0]++;
                }
            }
        }
    }

    /** Whether the releaser gave the seat back yet: a renew answers 410 once it has. */
    private static String stillHeld(HttpClient client, URI base, SeatTarget.License license, String leaseId) throws Exception {
        int status = send(client, HttpRequest.newBuilder(base.resolve("/v1/seats/" + leaseId + "/renew"))
                .header("Authorization", "License " + license.key())
                .POST(HttpRequest.BodyPublishers.noBody())).statusCode();
        return status == 200 ? leaseId : null;
    }

    private static HttpResponse<String> send(HttpClient client, HttpRequest.Builder request) throws Exception {
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static double millis(long[] sorted, double quantile) {
        if (sorted.length == 0) {
            return 0;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(quantile * sorted.length) - 1)] / 1e6;
    }
}
