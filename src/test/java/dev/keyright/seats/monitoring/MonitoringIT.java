package dev.keyright.seats.monitoring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.tools.attach.VirtualMachine;
import dev.keyright.seats.monitoring.boundary.ReaperMXBean;
import dev.keyright.seats.monitoring.boundary.SeatPoolMXBean;
import dev.keyright.seats.monitoring.boundary.SeatServiceMXBean;
import dev.keyright.seats.testing.OnTheServer;
import dev.keyright.seats.testing.Api;
import dev.keyright.seats.testing.Promtool;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.net.URL;
import java.time.Instant;
import java.util.List;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.Notification;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.jboss.arquillian.container.test.api.Deployment;
import org.junit.jupiter.api.Test;

/** JMX read through a real JMXConnector to the running server, the usage report, and health. */
class MonitoringIT extends OnTheServer {

    /** The Payara Micro JVM Arquillian started: a child of this test JVM. Its local JMX agent, over a JMXConnector. */
    private static JMXConnector connectToServer() throws Exception {
        ProcessHandle server = ProcessHandle.current().descendants()
                .filter(p -> p.info().commandLine().orElse("").contains("payara-micro"))
                .findFirst().orElseThrow(() -> new IllegalStateException("no Payara Micro process found"));
        VirtualMachine vm = VirtualMachine.attach(String.valueOf(server.pid()));
        try {
            String address = vm.startLocalManagementAgent();
            return JMXConnectorFactory.connect(new JMXServiceURL(address));
        } finally {
            vm.detach();
        }
    }

    @Test
    void theFirstOverdraftSeatIsNotifiedAndThePoolBeanShowsOverdraftAndReservedSeats() throws Exception {
        Api api = api();
        String product = uniqueProduct("jmx-ovr");
        Api.Reply created = api.admin("POST", "/v1/admin/licenses", "{\"product\":\"" + product + "\",\"seats\":2,"
                + "\"overdraftSeats\":2,\"maxBorrowHours\":4,\"reservations\":[{\"name\":\"ops\",\"users\":[\"ops\"],\"seats\":1}]}");
        assertEquals(201, created.status(), created.toString());
        String id = created.json().getString("licenseId");
        String key = created.json().getString("licenseKey");
        try (JMXConnector connector = connectToServer()) {
            MBeanServerConnection jmx = connector.getMBeanServerConnection();
            ObjectName poolName = new ObjectName("dev.keyright:type=SeatPool,license=" + id);
            SeatPoolMXBean pool = JMX.newMXBeanProxy(jmx, poolName, SeatPoolMXBean.class);
            BlockingQueue<Notification> notifications = new LinkedBlockingQueue<>();
            jmx.addNotificationListener(poolName, (notification, handback) -> notifications.add(notification), null, null);
            assertEquals(2, pool.getOverdraftSeats());
            assertEquals(1, pool.getReservedSeats());

            Api.Reply ops = api.acquireAs(product, key, "ops-1", "ops", "h");
            assertEquals(201, ops.status());
            assertEquals(0, pool.getBorrowedSeats());
            assertEquals(200, api.borrow(key, ops.json().getString("leaseId"), 2).status());
            assertEquals(1, pool.getBorrowedSeats(), "a seat borrowed for offline use");
            assertEquals(201, api.acquireAs(product, key, "dev-1", "dev", "h").status());
            Notification full = notifications.poll(10, TimeUnit.SECONDS);
            assertEquals("dev.keyright.pool.full", full == null ? null : full.getType());
            assertEquals(0, pool.getOverdraftInUse());
            assertEquals(201, api.acquireAs(product, key, "dev-2", "dev", "h").status());
            Notification overdraft = notifications.poll(10, TimeUnit.SECONDS);
            assertEquals("dev.keyright.pool.overdraft", overdraft == null ? null : overdraft.getType(),
                    "a notification at the first overdraft checkout");
            assertEquals(201, api.acquireAs(product, key, "dev-3", "dev", "h").status());
            assertEquals(2, pool.getOverdraftInUse());
            assertEquals(2, pool.getOverdraftCheckouts());
            assertEquals(4, pool.getSeatsInUse());
            Notification more = notifications.poll(300, TimeUnit.MILLISECONDS);
            assertEquals(null, more == null ? null : more.getType(), "only the first overdraft seat is notified");
        }
    }

    @Test
    void poolReaperAndServiceBeansReadThroughJmx() throws Exception {
        Api api = api();
        String product = uniqueProduct("jmx");
        JsonObject license = api.createLicense(product, 1, 60, 5);
        String id = license.getString("licenseId");
        String key = license.getString("licenseKey");
        try (JMXConnector connector = connectToServer()) {
            MBeanServerConnection jmx = connector.getMBeanServerConnection();
            ObjectName poolName = new ObjectName("dev.keyright:type=SeatPool,license=" + id);
            assertTrue(jmx.isRegistered(poolName), "registered when the license was issued");
            SeatPoolMXBean pool = JMX.newMXBeanProxy(jmx, poolName, SeatPoolMXBean.class);
            BlockingQueue<Notification> notifications = new LinkedBlockingQueue<>();
            jmx.addNotificationListener(poolName, (notification, handback) -> notifications.add(notification), null, null);

            assertEquals(product, pool.getProduct());
            assertEquals(0, pool.getSeatsInUse());
            assertEquals(1, pool.getMaxSeats());
            String leaseId = api.acquire(product, key, "jmx-a").json().getString("leaseId");
            assertEquals(1, pool.getSeatsInUse());
            assertEquals(1, pool.getAcquisitions());
            Notification full = notifications.poll(10, TimeUnit.SECONDS);
            assertEquals("dev.keyright.pool.full", full == null ? null : full.getType(), "a notification when the pool turns full");

            assertEquals(409, api.acquire(product, key, "jmx-b").status());
            assertEquals(1, pool.getDenials());
            assertEquals(200, api.renew(key, leaseId).status());
            assertEquals(1, pool.getRenewals());
            assertEquals(204, api.release(key, leaseId).status());
            assertEquals(1, pool.getReleases());
            assertEquals(0, pool.getSeatsInUse());

            api.reap();
            ReaperMXBean reaper = JMX.newMXBeanProxy(jmx, new ObjectName("dev.keyright:type=Reaper"), ReaperMXBean.class);
            assertFalse(reaper.getLastSweepTime().isEmpty());
            Instant.parse(reaper.getLastSweepTime());

            SeatServiceMXBean service = JMX.newMXBeanProxy(jmx, new ObjectName("dev.keyright:type=SeatService"), SeatServiceMXBean.class);
            assertTrue(service.isDatabaseReachable());
            assertTrue(service.getLicenses() >= 1);
            assertTrue(service.getAcquisitions() >= 1);
            long drift = service.getClockDriftMillis();
            assertTrue(Math.abs(drift) < 5_000, "this node and the database agree within seconds: " + drift);
            assertFalse(service.isClockDriftWarning());
            api.advanceClock(Duration.ofMinutes(10)); // this node's clock, as the server's own code sees it
            try {
                long moved = service.getClockDriftMillis();
                assertTrue(Math.abs(moved - drift - 600_000) < 5_000, "the figure follows the node's clock: " + moved);
                assertTrue(service.isClockDriftWarning(), "ten minutes is far above half any skew");
            } finally {
                api.advanceClock(Duration.ofMinutes(-10));
            }
        }
    }

    @Test
    void usageReportsPeakConcurrencyAndEventsPerBucket() {
        Api api = api();
        String product = uniqueProduct("usage");
        JsonObject license = api.createLicense(product, 2, 60, 5);
        String id = license.getString("licenseId");
        String key = license.getString("licenseKey");
        String a = api.acquire(product, key, "u-a").json().getString("leaseId");
        api.acquire(product, key, "u-b");
        assertEquals(409, api.acquire(product, key, "u-c").status());
        assertEquals(204, api.release(key, a).status());

        Api.Reply reply = api.admin("GET", "/v1/admin/licenses/" + id + "/usage?bucket=hour", null);
        assertEquals(200, reply.status(), reply.toString());
        JsonObject usage = reply.json();
        assertEquals("hour", usage.getString("bucket"));
        assertEquals(2, usage.getInt("maxSeats"));
        List<JsonObject> buckets = usage.getJsonArray("buckets").getValuesAs(JsonObject.class);
        assertEquals(24, buckets.size());
        // summed over the buckets: the events of this test may straddle an hour boundary
        assertEquals(2, buckets.stream().mapToInt(b -> b.getInt("peakInUse")).max().orElse(0));
        assertEquals(2, buckets.stream().mapToInt(b -> b.getInt("acquisitions")).sum());
        assertEquals(1, buckets.stream().mapToInt(b -> b.getInt("denials")).sum());
        assertEquals(1, buckets.stream().mapToInt(b -> b.getInt("releases")).sum());
        assertEquals(2, Math.max(buckets.get(buckets.size() - 1).getInt("peakInUse"), buckets.get(buckets.size() - 2).getInt("peakInUse")),
                "the peak is in the newest of the buckets");

        JsonObject days = api.admin("GET", "/v1/admin/licenses/" + id + "/usage?bucket=day", null).json();
        assertEquals(30, days.getJsonArray("buckets").size());
        assertEquals(400, api.admin("GET", "/v1/admin/licenses/" + id + "/usage?bucket=week", null).status());
        assertEquals(400, api.admin("GET", "/v1/admin/licenses/" + id + "/usage?from=2020-01-01T00:00:00Z&to=2026-01-01T00:00:00Z", null).status());
        assertEquals(404, api.admin("GET", "/v1/admin/licenses/lic_nope/usage", null).status());
    }

    @Test
    void usageOnAFrozenClockMidHourCountsInThatHoursBucket() {
        Api api = api();
        // the middle of the hour before this one, on the server's clock, frozen: every event at one instant
        long middle = java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.HOURS).minus(Duration.ofMinutes(30)).toEpochMilli();
        api.freezeClock(middle);
        try {
            String product = uniqueProduct("frozen-usage");
            JsonObject license = api.createLicense(product, 2, 60, 5);
            String key = license.getString("licenseKey");
            String a = api.acquire(product, key, "f-a").json().getString("leaseId");
            api.acquire(product, key, "f-b");
            assertEquals(409, api.acquire(product, key, "f-c").status());
            assertEquals(204, api.release(key, a).status());

            JsonObject usage = api.admin("GET", "/v1/admin/licenses/" + license.getString("licenseId") + "/usage?bucket=hour", null).json();
            List<JsonObject> buckets = usage.getJsonArray("buckets").getValuesAs(JsonObject.class);
            JsonObject last = buckets.get(buckets.size() - 1);
            assertEquals(java.time.Instant.ofEpochMilli(middle).truncatedTo(java.time.temporal.ChronoUnit.HOURS).toString(),
                    last.getString("start"), "the newest bucket is the frozen instant's hour: " + usage);
            assertEquals(2, last.getInt("acquisitions"), usage.toString());
            assertEquals(1, last.getInt("denials"), usage.toString());
            assertEquals(1, last.getInt("releases"), usage.toString());
            // both seats were held at the frozen instant (the third install was refused for it), even though one was
            // released at that same instant and the other is held "until now"
            assertEquals(2, last.getInt("peakInUse"), usage.toString());
        } finally {
            api.resetClock();
        }
    }

    @Test
    void prometheusMetricsForAdministratorsOnlyWellFormedAndTrue() throws Exception {
        Api api = api();
        String product = uniqueProduct("metrics");
        JsonObject license = api.createLicense(product, 1, 60, 5);
        String id = license.getString("licenseId");
        String key = license.getString("licenseKey");
        String leaseId = api.acquire(product, key, "m-a").json().getString("leaseId");
        assertEquals(409, api.acquire(product, key, "m-b").status());
        assertEquals(200, api.renew(key, leaseId).status());

        Api.Reply anonymous = api.send("GET", "/v1/admin/metrics", null, java.util.Map.of());
        assertEquals(401, anonymous.status(), "not for strangers");
        Api.Reply scrape = api.admin("GET", "/v1/admin/metrics", null);
        assertEquals(200, scrape.status(), scrape.toString());
        String type = scrape.header("Content-Type").toLowerCase();
        assertTrue(type.startsWith("text/plain") && type.contains("version=0.0.4"), "the Prometheus text format: " + type);
        String text = scrape.body();
        String labels = "{license=\"" + id + "\",product=\"" + product + "\"}";
        assertTrue(text.contains("keyright_seats_in_use" + labels + " 1\n"), text);
        assertTrue(text.contains("keyright_seats_max" + labels + " 1\n"), text);
        assertTrue(text.contains("keyright_acquisitions_total" + labels + " 1\n"), text);
        assertTrue(text.contains("keyright_renewals_total" + labels + " 1\n"), text);
        assertTrue(text.contains("keyright_denials_total{license=\"" + id + "\",product=\"" + product + "\",reason=\"seats-exhausted\"} 1\n"), text);
        assertTrue(text.contains("keyright_request_duration_seconds_count{route=\"POST /v1/seats/{leaseId}/renew\"} "), text);
        assertTrue(text.contains("keyright_request_duration_seconds_bucket{route=\"POST /v1/seats/acquire\",le=\"+Inf\"} "), text);
        assertTrue(text.contains("# TYPE keyright_reaper_sweeps_total counter\n"), text);

        assertTrue(text.contains("keyright_seats_borrowed" + labels + " 0\n"), text);

        // Offline use: a borrowed seat and an activated machine are counted.
        String lending = uniqueProduct("metrics-bor");
        JsonObject lendingLicense = api.createLicense(Json.createObjectBuilder().add("product", lending).add("seats", 2)
                .add("ttlSeconds", 60).add("skewSeconds", 5).add("maxBorrowHours", 4).build());
        String borrowedLease = api.acquire(lending, lendingLicense.getString("licenseKey"), "m-laptop").json().getString("leaseId");
        assertEquals(200, api.borrow(lendingLicense.getString("licenseKey"), borrowedLease, 2).status());
        String machines = uniqueProduct("metrics-nl");
        JsonObject nodeLocked = dev.keyright.seats.activations.ActivationsIT.nodeLockedLicense(api, machines, 3, 30);
        assertEquals(201, api.activate(machines, nodeLocked.getString("licenseKey"), "metrics-machine-0001").status());
        text = api.admin("GET", "/v1/admin/metrics", null).body();
        assertTrue(text.contains("keyright_seats_borrowed{license=\"" + lendingLicense.getString("licenseId") + "\",product=\""
                + lending + "\"} 1\n"), text);
        String nodeLabels = "{license=\"" + nodeLocked.getString("licenseId") + "\",product=\"" + machines + "\"}";
        assertTrue(text.contains("keyright_activations_in_use" + nodeLabels + " 1\n"), text);
        assertTrue(text.contains("keyright_activations_max" + nodeLabels + " 3\n"), text);
        assertTrue(!text.contains("keyright_activations_in_use" + labels), "a floating license has no activations");

        Promtool.Result check = Promtool.checkMetrics(text);
        assertEquals(0, check.status(), "promtool check metrics: " + check.output());
    }

    @Test
    void healthReportsTheDatabaseAndTheClock() {
        Api.Reply health = api().send("GET", "/v1/health", null, java.util.Map.of());
        assertEquals(200, health.status());
        JsonObject json = health.json();
        assertEquals("UP", json.getString("status"));
        assertEquals("database", json.getJsonArray("checks").getJsonObject(0).getString("name"));
        assertTrue(json.getJsonArray("checks").getJsonObject(0).getJsonObject("data").getBoolean("reachable"));
    }

    /** The document the integration tests check every exchange against is the one the server publishes. */
    @Test
    void theOpenApiDocumentIsServedToAnyoneAsItShips() throws Exception {
        Api.Reply document = api().send("GET", "/v1/openapi.yaml", null, java.util.Map.of());
        assertEquals(200, document.status());
        assertEquals("application/yaml", dev.keyright.seats.testing.Contract.mediaType(document.contentType()));
        assertEquals(dev.keyright.seats.testing.Contract.document().text(), document.body());
    }
}
