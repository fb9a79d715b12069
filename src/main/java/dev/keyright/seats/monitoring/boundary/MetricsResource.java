package dev.keyright.seats.monitoring.boundary;

import dev.keyright.seats.activations.boundary.Activations;
import dev.keyright.seats.licenses.entity.OfflineUse;

import dev.keyright.seats.admins.boundary.AdminOnly;
import dev.keyright.seats.leases.boundary.Pools;
import dev.keyright.seats.licenses.boundary.Licenses;
import dev.keyright.seats.licenses.entity.License;
import dev.keyright.seats.monitoring.control.PrometheusText;
import dev.keyright.seats.monitoring.control.ReaperStatistics;
import dev.keyright.seats.monitoring.control.RequestDurations;
import dev.keyright.seats.monitoring.control.SeatMetrics;
import jakarta.ejb.EJB;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code GET /v1/admin/metrics}: the pools, this node's counters, its answer times and its reaper in the
 * Prometheus text format, for the administrators' role (a scrape job with basic_auth: docs/DEPLOYMENT.md).
 * Seats in use are read from the database per license, as the pool view does, and the machines of all
 * node-locked licenses with one grouped count; counters are this node's since it started, as Prometheus expects
 * of counters.
 */
@Path("v1/admin/metrics")
@AdminOnly
public class MetricsResource {

    @EJB
    Licenses licenses;
    @EJB
    Pools pools;
    @EJB
    Activations activations;
    @Inject
    SeatMetrics metrics;
    @Inject
    ReaperStatistics reaper;
    @Inject
    RequestDurations durations;

    private record Snapshot(License license, Pools.PoolSize size, SeatMetrics.PoolCounters counters) {
        Map<String, String> labels() {
            Map<String, String> labels = new LinkedHashMap<>();
            labels.put("license", license.id());
            labels.put("product", license.product());
            return labels;
        }
    }

    @GET
    @Produces(PrometheusText.CONTENT_TYPE)
    public Response scrape() {
        List<Snapshot> snapshots = new ArrayList<>();
        for (License license : licenses.all()) {
            snapshots.add(new Snapshot(license, pools.seatsInUse(license.id()), metrics.of(license.id())));
        }
        PrometheusText text = new PrometheusText();
        gauge(text, snapshots, "keyright_seats_in_use", "Seats held now (live leases), per license.", s -> s.size().inUse());
        gauge(text, snapshots, "keyright_seats_max", "Seats the license grants.", s -> s.size().max());
        gauge(text, snapshots, "keyright_seats_overdraft_in_use", "Seats held beyond the license's seats, out of its overdraft.",
                s -> s.size().overdraftInUse());
        gauge(text, snapshots, "keyright_seats_overdraft_max", "Seats the license may grant beyond its count.", s -> s.size().overdraftSeats());
        gauge(text, snapshots, "keyright_seats_reserved", "Seats reserved for named users or hosts.", s -> s.size().reservedSeats());
        gauge(text, snapshots, "keyright_seats_borrowed", "Seats borrowed for offline use, counted until they were borrowed until.",
                s -> s.size().borrowed());
        gauge(text, snapshots, "keyright_seats_queued", "Installs waiting in the license's queue.", s -> s.size().queued());
        gauge(text, snapshots, "keyright_license_suspended", "1 while the license is suspended.",
                s -> s.license().status() == License.Status.SUSPENDED ? 1 : 0);
        activations(text, snapshots);
        counter(text, snapshots, "keyright_acquisitions_total", "Seats granted by this node.", c -> c.acquisitions);
        counter(text, snapshots, "keyright_overdraft_checkouts_total", "Seats granted by this node out of the overdraft.", c -> c.overdraftCheckouts);
        counter(text, snapshots, "keyright_renewals_total", "Heartbeats this node answered.", c -> c.renewals);
        counter(text, snapshots, "keyright_releases_total", "Seats given back through this node.", c -> c.releases);
        counter(text, snapshots, "keyright_expiries_total", "Leases this node's reaper found expired.", c -> c.expiries);
        counter(text, snapshots, "keyright_revocations_total", "Seats revoked by an administrator through this node.", c -> c.revocations);
        text.family("keyright_denials_total", "counter", "Checkouts this node refused, by reason (a problem type).");
        for (Snapshot s : snapshots) {
            s.counters().denialsByReason.forEach((reason, count) -> {
                Map<String, String> labels = s.labels();
                labels.put("reason", reason);
                text.sample("keyright_denials_total", labels, count.sum());
            });
        }
        requestDurations(text);
        text.family("keyright_reaper_sweeps_total", "counter", "Sweeps of this node's lease reaper.")
                .sample("keyright_reaper_sweeps_total", Map.of(), reaper.sweeps());
        text.family("keyright_reaper_leases_reaped_total", "counter", "Expired leases this node's reaper deleted.")
                .sample("keyright_reaper_leases_reaped_total", Map.of(), reaper.totalReaped());
        text.family("keyright_reaper_last_sweep_duration_seconds", "gauge", "How long the last sweep took.")
                .sample("keyright_reaper_last_sweep_duration_seconds", Map.of(), reaper.lastSweep().duration().toNanos() / 1e9);
        return Response.ok(text.text()).type(PrometheusText.CONTENT_TYPE).header("Cache-Control", "no-store").build();
    }

    /** A node-locked license's machines: activated now (from the database) and allowed. Floating licenses have none. */
    private void activations(PrometheusText text, List<Snapshot> snapshots) {
        List<Snapshot> nodeLocked = snapshots.stream()
                .filter(s -> s.license().offline().model() == OfflineUse.Model.NODE_LOCKED).toList();
        Map<String, Long> live = activations.countLiveOf(nodeLocked.stream().map(s -> s.license().id()).toList());
        gauge(text, nodeLocked, "keyright_activations_in_use", "Machines activated now on a node-locked license.",
                s -> live.getOrDefault(s.license().id(), 0L));
        gauge(text, nodeLocked, "keyright_activations_max", "Machines a node-locked license may activate.",
                s -> s.license().offline().maxActivations().orElse(0));
    }

    private static void gauge(PrometheusText text, List<Snapshot> snapshots, String name, String help, ToDoubleFunction<Snapshot> value) {
        text.family(name, "gauge", help);
        snapshots.forEach(s -> text.sample(name, s.labels(), value.applyAsDouble(s)));
    }

    private static void counter(PrometheusText text, List<Snapshot> snapshots, String name, String help,
                                Function<SeatMetrics.PoolCounters, LongAdder> counter) {
        text.family(name, "counter", help);
        snapshots.forEach(s -> text.sample(name, s.labels(), counter.apply(s.counters()).sum()));
    }

    private void requestDurations(PrometheusText text) {
        String name = "keyright_request_duration_seconds";
        text.family(name, "histogram", "Time to answer, per route (a held acquire counts its wait).");
        durations.byRoute().forEach((route, histogram) -> {
            long[] cumulative = histogram.cumulative();
            for (int i = 0; i < RequestDurations.BOUNDS.length; i++) {
                Map<String, String> labels = new LinkedHashMap<>();
                labels.put("route", route);
                labels.put("le", bound(RequestDurations.BOUNDS[i]));
                text.sample(name + "_bucket", labels, cumulative[i]);
            }
            text.sample(name + "_sum", Map.of("route", route), histogram.totalSeconds());
            text.sample(name + "_count", Map.of("route", route), histogram.count());
        });
    }

    private static String bound(double bound) {
        return bound == Double.POSITIVE_INFINITY ? "+Inf" : String.valueOf(bound);
    }
}
