package dev.keyright.seats.usage.boundary;

import dev.keyright.seats.leases.entity.Lease;
import dev.keyright.seats.leases.entity.LeaseEvent;
import dev.keyright.seats.licenses.boundary.Licenses;
import dev.keyright.seats.licenses.entity.License;
import dev.keyright.seats.usage.control.UsageReport;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Usage reports from the history: what tells a customer whether to buy more seats. */
@Stateless
public class Usage {

    @PersistenceContext
    EntityManager em;
    @EJB
    Licenses licenses;
    @Inject
    Clock clock;

    public Report report(String licenseId, Instant from, Instant to, Duration bucket) {
        License license = licenses.get(licenseId);
        Instant now = clock.instant();
        Map<String, Instant> openLeases = em.createNamedQuery(Lease.FIND_OF_LICENSE, Lease.class)
                .setParameter("licenseId", licenseId).getResultStream()
                .collect(Collectors.toMap(Lease::id, Lease::expiresAt));
        List<UsageReport.Hold> holds = new ArrayList<>();
        for (LeaseEvent grant : em.createNamedQuery(LeaseEvent.FIND_GRANTS_OVERLAPPING, LeaseEvent.class)
                .setParameter("licenseId", licenseId)
                .setParameter("from", from.toEpochMilli())
                .setParameter("to", to.toEpochMilli())
                .getResultList()) {
            Instant end = grant.endedAt().orElseGet(() -> {
                Instant expiry = openLeases.getOrDefault(grant.leaseId(), grant.at());
                return expiry.isBefore(now) ? expiry : now;
            });
            holds.add(new UsageReport.Hold(grant.at(), end));
        }
        List<UsageReport.Event> events = em.createNamedQuery(LeaseEvent.FIND_IN_WINDOW, LeaseEvent.class)
                .setParameter("licenseId", licenseId)
                .setParameter("from", from.toEpochMilli())
                .setParameter("to", to.toEpochMilli())
                .getResultStream()
                .map(e -> new UsageReport.Event(e.kind(), e.at(), e.reason().orElse(null), e.overdraft()))
                .collect(Collectors.toList());
        return new Report(license, from, to, bucket, UsageReport.compute(from, to, bucket, holds, events));
    }

    public record Report(License license, Instant from, Instant to, Duration bucket, List<UsageReport.Bucket> buckets) {
    }
}
