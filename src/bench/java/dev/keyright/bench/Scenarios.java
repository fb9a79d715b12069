package dev.keyright.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The four scenarios, written once against {@link SeatTarget} so the server and the floor run exactly
 * the same operations. Latencies are recorded for every call (failed ones too); a call with an
 * unexpected status is counted as an error by status.
 */
final class Scenarios {

    private final BenchConfig config;
    private final String nonce = Long.toString(System.currentTimeMillis() % 1_000_000_000L, 36);

    Scenarios(BenchConfig config) {
        this.config = config;
    }

    /**
     * Not measured: ping, acquire, renew and release back to back on a license of its own for {@code seconds},
     * so the first scenario does not meet a cold JIT (Payara compiles a great deal in its first minute).
     */
    void warmUp(SeatTarget target, int seconds) throws Exception {
        if (seconds <= 0) {
            return;
        }
        SeatTarget.License license = target.createLicenses("bench-warmup", 1, Math.max(1000, 4 * config.threads()), 120).get(0);
        Recording recording = new Recording(List.of("cycle"));
        String prefix = "warm-" + nonce + "-";
        Drivers.closedLoop(target, recording, config.threads(), 0, seconds, (session, thread, n, w) -> {
            session.ping(); // the cheapest route warm too (round 27)
            SeatTarget.Call acquired = session.acquire(license, prefix + thread + "-" + n);
            if (acquired.status() == 201) {
                session.renew(license, acquired.leaseId());
                session.release(license, acquired.leaseId());
            }
        });
    }

    /** ping (informational): the cheapest call, back to back: what the HTTP stack, or a JDBC round trip, costs alone. */
    Drivers.Run ping(SeatTarget target) throws Exception {
        Recording recording = new Recording(List.of("ping"));
        return Drivers.closedLoop(target, recording, config.threads(), config.warmupSeconds(), config.seconds(),
                (session, thread, n, w) -> {
                    long t0 = System.nanoTime();
                    SeatTarget.Call answer = session.ping();
                    w.record(0, System.nanoTime() - t0);
                    if (answer.status() != 200) {
                        w.error(0, answer);
                        return;
                    }
                    w.completed();
                });
    }

    /** hot: acquire then release, back to back, every thread on one license. One operation = one acquire + its release. */
    SeatTarget.License hotLicense(SeatTarget target) throws Exception {
        return target.createLicenses("bench-hot", 1, Math.max(1000, 4 * config.threads()), 120).get(0);
    }

    Drivers.Run hot(SeatTarget target, SeatTarget.License license) throws Exception {
        Recording recording = new Recording(List.of("acquire+release", "acquire", "release"));
        String prefix = "hot-" + nonce + "-";
        return Drivers.closedLoop(target, recording, config.threads(), config.warmupSeconds(), config.seconds(),
                (session, thread, n, w) -> {
                    long t0 = System.nanoTime();
                    SeatTarget.Call acquired = session.acquire(license, prefix + thread + "-" + n);
                    long t1 = System.nanoTime();
                    w.record(1, t1 - t0);
                    if (acquired.status() != 201) {
                        w.error(1, acquired);
                        return;
                    }
                    SeatTarget.Call released = session.release(license, acquired.leaseId());
                    long t2 = System.nanoTime();
                    w.record(2, t2 - t1);
                    if (released.status() != 204) {
                        w.error(2, released);
                        return;
                    }
                    w.record(0, t2 - t0);
                    w.completed();
                });
    }

    /** spread: acquire only, each on one of {@code bench.spread.licenses} licenses picked at random; leases stay live. */
    List<SeatTarget.License> spreadLicenses(SeatTarget target) throws Exception {
        return target.createLicenses("bench-spread", config.spreadLicenses(), 1_000_000, 120);
    }

    Drivers.Run spread(SeatTarget target, List<SeatTarget.License> licenses) throws Exception {
        Recording recording = new Recording(List.of("acquire"));
        String prefix = "spread-" + nonce + "-";
        return Drivers.closedLoop(target, recording, config.threads(), config.warmupSeconds(), config.seconds(),
                (session, thread, n, w) -> {
                    SeatTarget.License license = licenses.get(ThreadLocalRandom.current().nextInt(licenses.size()));
                    long t0 = System.nanoTime();
                    SeatTarget.Call acquired = session.acquire(license, prefix + thread + "-" + n);
                    w.record(0, System.nanoTime() - t0);
                    if (acquired.status() != 201) {
                        w.error(0, acquired);
                        return;
                    }
                    w.completed();
                });
    }

    /** The live leases the renew and mixed scenarios heartbeat. */
    record LivePool(List<SeatTarget.License> licenses, SeatTarget.License[] leaseLicense, String[] leaseIds, double setupSeconds) {
        int size() {
            return leaseIds.length;
        }
    }

    /**
     * Set-up of renew (not measured): {@code bench.renew.licenses} licenses (default 10) of
     * {@code leasesPerLicense + 10%} seats with a TTL of one hour, and {@code leasesPerLicense} leases
     * acquired on each (default 10 x 1,000 = 10,000 live leases).
     */
    LivePool livePool(SeatTarget target) throws Exception {
        long started = System.nanoTime();
        int perLicense = config.renewLeasesPerLicense();
        List<SeatTarget.License> licenses = target.createLicenses("bench-renew", config.renewLicenses(),
                perLicense + Math.max(10, perLicense / 10), 3600);
        int total = config.renewLeases();
        SeatTarget.License[] leaseLicense = new SeatTarget.License[total];
        String[] leaseIds = new String[total];
        AtomicLong next = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(config.threads());
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < config.threads(); t++) {
                futures.add(pool.submit(() -> {
                    try (SeatTarget.Session session = target.open()) {
                        for (int i = (int) next.getAndIncrement(); i < total; i = (int) next.getAndIncrement()) {
                            SeatTarget.License license = licenses.get(i % licenses.size());
                            SeatTarget.Call call = null;
                            for (int attempt = 0; attempt < 5; attempt++) {
                                call = session.acquire(license, "live-" + nonce + "-" + i);
                                if (call.status() == 201) {
                                    break;
                                }
                            }
                            if (call.status() != 201) {
                                throw new IllegalStateException("set-up acquire " + i + " on " + target.name() + ": " + call.errorKey());
                            }
                            leaseLicense[i] = license;
                            leaseIds[i] = call.leaseId();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(10, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        return new LivePool(licenses, leaseLicense, leaseIds, (System.nanoTime() - started) / 1e9);
    }

    /** renew: heartbeat the live leases round-robin, back to back. */
    Drivers.Run renew(SeatTarget target, LivePool live) throws Exception {
        Recording recording = new Recording(List.of("renew"));
        AtomicLong next = new AtomicLong();
        return Drivers.closedLoop(target, recording, config.threads(), config.warmupSeconds(), config.seconds(),
                (session, thread, n, w) -> {
                    int i = (int) (next.getAndIncrement() % live.size());
                    long t0 = System.nanoTime();
                    SeatTarget.Call renewed = session.renew(live.leaseLicense()[i], live.leaseIds()[i]);
                    w.record(0, System.nanoTime() - t0);
                    if (renewed.status() != 200) {
                        w.error(0, renewed);
                        return;
                    }
                    w.completed();
                });
    }

    /** The heartbeat interval of the mixed scenario: the server's renewAfterSeconds, TTL/3 (at least 1 s). */
    int mixedRenewAfterSeconds() {
        return Math.max(1, config.mixedTtlSeconds() / 3);
    }

    double mixedRenewRate(LivePool live) {
        return live.size() / (double) mixedRenewAfterSeconds();
    }

    /**
     * mixed: the live leases' licenses are set to a TTL of {@code bench.mixed.ttl} seconds (default 6), then
     * every lease heartbeats once per TTL/3, open loop (10,000 leases / 2 s = 5,000 renewals a second,
     * spread evenly), while a churn stream acquires and releases {@code bench.mixed.churn} seats a second
     * on the same licenses. Latency is measured from each call's scheduled time.
     */
    Drivers.Run mixed(SeatTarget target, LivePool live) throws Exception {
        return mixed(target, live, config.seconds());
    }

    /** {@link #mixed(SeatTarget, LivePool)} for {@code seconds} (the soak runs it for 15 minutes). */
    Drivers.Run mixed(SeatTarget target, LivePool live, int seconds) throws Exception {
        for (SeatTarget.License license : live.licenses()) {
            target.changeTtl(license, config.mixedTtlSeconds());
        }
        Recording recording = new Recording(List.of("renew", "renew (service time)", "churn acquire+release",
                "churn acquire", "churn release"));
        String prefix = "churn-" + nonce + "-";
        Drivers.Stream renewals = new Drivers.Stream("renew", mixedRenewRate(live), config.threads(), 0,
                (session, slot, scheduled, w) -> {
                    int i = (int) (slot % live.size());
                    long sent = System.nanoTime();
                    SeatTarget.Call renewed = session.renew(live.leaseLicense()[i], live.leaseIds()[i]);
                    long done = System.nanoTime();
                    w.record(0, done - scheduled);
                    w.record(1, done - sent);
                    if (renewed.status() != 200) {
                        w.error(0, renewed);
                        return;
                    }
                    w.completedAt(done);
                });
        Drivers.Stream churn = new Drivers.Stream("churn", config.mixedChurnPerSecond(), 2, 2,
                (session, slot, scheduled, w) -> {
                    SeatTarget.License license = live.licenses().get((int) (slot % live.licenses().size()));
                    long sent = System.nanoTime();
                    SeatTarget.Call acquired = session.acquire(license, prefix + slot);
                    long t1 = System.nanoTime();
                    w.record(3, t1 - sent);
                    if (acquired.status() != 201) {
                        w.error(3, acquired);
                        return;
                    }
                    SeatTarget.Call released = session.release(license, acquired.leaseId());
                    long t2 = System.nanoTime();
                    w.record(4, t2 - t1);
                    w.record(2, t2 - scheduled);
                    if (released.status() != 204) {
                        w.error(4, released);
                    }
                });
        return Drivers.openLoop(target, recording, config.warmupSeconds(), seconds, List.of(renewals, churn));
    }
}
