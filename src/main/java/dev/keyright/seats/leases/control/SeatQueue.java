package dev.keyright.seats.leases.control;

import dev.keyright.seats.configuration.KeyrightConfig;
import dev.keyright.seats.database.Ids;
import dev.keyright.seats.leases.entity.Holder;
import dev.keyright.seats.leases.entity.QueueEntry;
import dev.keyright.seats.licenses.entity.License;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The line of installs waiting for a seat of a license, in the caller's transaction, which holds the
 * license lock: reading it, joining it, keeping a place, leaving it. An entry that stopped waiting
 * ({@link dev.keyright.seats.leases.entity.QueueKeep}) leaves the line when the line is read. Whether a checkout
 * reads the line at all is decided here too, from the license row's hint ({@link License#mayHaveWaiters}), which a
 * checkout sets here (when an install joins) and clears here (when the line was read and nobody else was in it);
 * only a node's start-up sets it elsewhere ({@code LicenseFlags}, for rows an older node wrote).
 */
@ApplicationScoped
public class SeatQueue {

    @PersistenceContext
    EntityManager em;
    @Inject
    KeyrightConfig config;

    /**
     * The line a checkout of {@code license} sees now, the license row locked by the caller: not read at all while the
     * row says nobody waits.
     */
    public Line lineFor(License license, Instant now) {
        return license.mayHaveWaiters() ? line(license.id(), now) : Line.empty(license.id());
    }

    /** The line now, first first. */
    public Line line(String licenseId, Instant now) {
        return line(licenseId, now, Set.of());
    }

    /**
     * The line now; the installs in {@code heldHere} are asking at this moment (their requests are held on this
     * node), so they are seen before the rule is applied. Read as values ({@link QueueEntry.Place}); the places that
     * stopped waiting are deleted in one statement, and a held install's place is kept by one.
     */
    public Line line(String licenseId, Instant now, Set<String> heldHere) {
        Duration keep = config.queueKeep();
        List<QueueEntry.Place> waiting = new ArrayList<>();
        List<String> gone = new ArrayList<>();
        long lastTicket = 0;
        for (Object[] row : em.createNamedQuery(QueueEntry.PLACES_OF_LICENSE, Object[].class)
                .setParameter("licenseId", licenseId).getResultList()) {
            QueueEntry.Place place = QueueEntry.Place.of(row);
            lastTicket = Math.max(lastTicket, place.ticket());
            if (heldHere.contains(place.holder().clientInstanceId()) && stale(place, now, keep)) {
                place = seen(place, now);
            }
            if (place.isWaitingAt(now, keep)) {
                waiting.add(place);
            } else {
                gone.add(place.id());
            }
        }
        remove(gone);
        return new Line(licenseId, waiting, lastTicket);
    }

    /** A place is refreshed once a third of the keep has passed, not on every look: fewer writes, same rule. */
    private static boolean stale(QueueEntry.Place place, Instant now, Duration keep) {
        return place.lastSeenAt().plus(keep.dividedBy(3)).isBefore(now);
    }

    /** The place is kept as of {@code now}: written now, and returned as it is now. */
    private QueueEntry.Place seen(QueueEntry.Place place, Instant now) {
        em.createNamedQuery(QueueEntry.SEEN).setParameter("id", place.id()).setParameter("now", now.toEpochMilli())
                .executeUpdate();
        return place.seenAt(now);
    }

    private void remove(List<String> ids) {
        if (!ids.isEmpty()) {
            em.createNamedQuery(QueueEntry.DELETE_BY_IDS).setParameter("ids", ids).executeUpdate();
        }
    }

    /**
     * The install asks again: it keeps its place, or joins at the end, and the license row (locked by the caller) says
     * someone may be waiting. Returns its position (1 = next).
     */
    public int keepPlace(License license, Line line, Holder holder, Instant now) {
        int ahead = line.ahead(holder.clientInstanceId());
        if (ahead < line.size()) {
            seen(line.entries().get(ahead), now);
        } else {
            em.persist(new QueueEntry(Ids.queueEntry(), line.licenseId(), holder, line.lastTicket() + 1, now));
        }
        license.noteWaiters(true);
        return ahead + 1;
    }

    /**
     * The install got its seat in a checkout: it leaves the line, and when nobody else was in the line the checkout
     * read, the license row (locked by the caller) is told so, in the update the checkout writes anyway: the next
     * checkouts skip the read.
     */
    public void seated(License license, Line line, String clientInstanceId) {
        leave(line, clientInstanceId);
        if (line.nobodyBut(clientInstanceId)) {
            license.noteWaiters(false);
        }
    }

    /** The install got its seat, or gave up: it leaves the line. */
    public void leave(Line line, String clientInstanceId) {
        line.entries().stream().filter(place -> place.isOf(clientInstanceId)).findFirst()
                .ifPresent(place -> remove(List.of(place.id())));
    }

    /** The installs waiting for a seat of a license now, first first: a view, read without the lock, that changes nothing. */
    public List<QueueEntry> waiting(String licenseId, Instant now) {
        Duration keep = config.queueKeep();
        return em.createNamedQuery(QueueEntry.FIND_OF_LICENSE, QueueEntry.class)
                .setParameter("licenseId", licenseId).getResultStream()
                .filter(entry -> entry.isWaitingAt(now, keep))
                .toList();
    }

    /** Every waiting install of these licenses, by license, first first (the admin list): one query. */
    public Map<String, List<QueueEntry>> byLicense(Collection<String> licenseIds, Instant now) {
        Set<String> wanted = Set.copyOf(licenseIds);
        Duration keep = config.queueKeep();
        return em.createNamedQuery(QueueEntry.FIND_ALL, QueueEntry.class).getResultStream()
                .filter(entry -> wanted.contains(entry.licenseId()) && entry.isWaitingAt(now, keep))
                .collect(Collectors.groupingBy(QueueEntry::licenseId));
    }

    /** A license's line as read under its lock. */
    public record Line(String licenseId, List<QueueEntry.Place> entries, long lastTicket) {

        /**
         * The line of a license nobody waits for ({@link License#mayHaveWaiters} clear): not read.
         */
        static Line empty(String licenseId) {
            return new Line(licenseId, List.of(), 0);
        }

        public int size() {
            return entries.size();
        }

        /** Whether nobody but this install is waiting. */
        boolean nobodyBut(String clientInstanceId) {
            return entries.stream().allMatch(place -> place.isOf(clientInstanceId));
        }

        /** How many waiting installs are ahead of this one: its index in the line, or the whole line if it is not in it. */
        public int ahead(String clientInstanceId) {
            for (int i = 0; i < entries.size(); i++) {
                if (entries.get(i).isOf(clientInstanceId)) {
                    return i;
                }
            }
            return entries.size();
        }
    }
}
