package dev.keyright.seats.usage.boundary;

import static dev.keyright.seats.problems.JsonProviders.JSON;

import dev.keyright.seats.web.Timestamps;
import dev.keyright.seats.admins.boundary.AdminOnly;
import dev.keyright.seats.leases.entity.LeaseEvent;
import dev.keyright.seats.problems.InvalidRequestException;
import dev.keyright.seats.usage.control.UsageReport;
import jakarta.ejb.EJB;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/** {@code GET /v1/admin/licenses/{id}/usage?from&to&bucket=hour|day} (role keyright-admin). */
@AdminOnly
@Path("v1/admin/licenses/{licenseId}/usage")
@Produces(MediaType.APPLICATION_JSON)
public class UsageResource {

    static final int MAX_BUCKETS = 1_000;

    @EJB
    Usage usage;
    @Inject
    Clock clock;

    @GET
    public Response report(@PathParam("licenseId") String licenseId, @QueryParam("from") String from,
                           @QueryParam("to") String to, @QueryParam("bucket") String bucket) {
        Duration width = width(bucket);
        ChronoUnit unit = width.equals(Duration.ofDays(1)) ? ChronoUnit.DAYS : ChronoUnit.HOURS;
        Instant end = to == null ? clock.instant().truncatedTo(unit).plus(width) : instant("to", to);
        Instant start = from == null ? end.minus(unit == ChronoUnit.DAYS ? Duration.ofDays(30) : Duration.ofHours(24)) : instant("from", from);
        if (!start.isBefore(end)) {
            throw new InvalidRequestException("from", "must be before 'to'");
        }
        if (Duration.between(start, end).dividedBy(width) >= MAX_BUCKETS) {
            throw new InvalidRequestException("from", "the range spans more than " + MAX_BUCKETS + " buckets");
        }
        Usage.Report report = usage.report(licenseId, start, end, width);
        JsonArrayBuilder buckets = JSON.createArrayBuilder();
        int seats = report.license().seats();
        for (UsageReport.Bucket b : report.buckets()) {
            var byReason = JSON.createObjectBuilder();
            b.denialsByReason().forEach(byReason::add);
            buckets.add(JSON.createObjectBuilder()
                    .add("start", Timestamps.format(b.start())).add("end", Timestamps.format(b.end()))
                    .add("peakInUse", b.peakInUse())
                    .add("peakOverdraft", Math.max(0, b.peakInUse() - seats))
                    .add("acquisitions", b.count(LeaseEvent.Kind.GRANT))
                    .add("overdraftCheckouts", b.overdraftCheckouts())
                    .add("denials", b.count(LeaseEvent.Kind.DENY))
                    .add("denialsByReason", byReason)
                    .add("expiries", b.count(LeaseEvent.Kind.EXPIRE))
                    .add("releases", b.count(LeaseEvent.Kind.RELEASE))
                    .add("revocations", b.count(LeaseEvent.Kind.REVOKE))
                    .add("borrows", b.count(LeaseEvent.Kind.BORROW))
                    .add("returns", b.count(LeaseEvent.Kind.RETURN)));
        }
        return Response.ok(JSON.createObjectBuilder()
                .add("licenseId", report.license().id())
                .add("product", report.license().product())
                .add("bucket", unit == ChronoUnit.DAYS ? "day" : "hour")
                .add("from", Timestamps.format(start)).add("to", Timestamps.format(end))
                .add("maxSeats", report.license().seats())
                .add("overdraftSeats", report.license().sharing().overdraftSeats())
                .add("buckets", buckets).build().toString()).build();
    }

    private static Duration width(String bucket) {
        if (bucket == null || "hour".equals(bucket)) {
            return Duration.ofHours(1);
        }
        if ("day".equals(bucket)) {
            return Duration.ofDays(1);
        }
        throw new InvalidRequestException("bucket", "must be \"hour\" or \"day\"");
    }

    private static Instant instant(String field, String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new InvalidRequestException(field, "must be an RFC 3339 timestamp in UTC, e.g. 2026-11-13T00:00:00Z");
        }
    }
}
