package dev.keyright.seats.idempotency.control;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * When a license's bound on stored answers ({@code KEYRIGHT_IDEMPOTENCY_RECORDS_PER_LICENSE}) is checked: at the
 * first answer this node stores for the license, then at every {@link #period}-th. Checking it at every store walked
 * the license's newest {@code bound} index entries and, once the license was full, deleted one record in a
 * transaction of its own for each grant; checked every tenth of the bound (at most {@link #MAX_PERIOD} stores), each
 * check drops the whole overflow at once, and a license holds at most {@code period - 1} records more than its bound
 * per node in between. The install's bound, which keeps one looping install from pushing out the others' records, is
 * still checked at every store.
 */
@ApplicationScoped
public class LicenseBoundChecks {

    /** The most stores between two checks: a check drops up to this many records at once. */
    public static final int MAX_PERIOD = 100;
    static final int MAX_LICENSES = 10_000;

    private final Map<String, AtomicInteger> storedSinceCheck = new ConcurrentHashMap<>();

    /** Whether the answer this node just stored for {@code licenseId} is one whose store checks the license's bound. */
    public boolean due(String licenseId, int bound) {
        int period = period(bound);
        if (period == 1) {
            return true;
        }
        if (storedSinceCheck.size() >= MAX_LICENSES) {
            storedSinceCheck.clear(); // every license forgotten is checked at its next store
        }
        AtomicInteger stored = storedSinceCheck.computeIfAbsent(licenseId, id -> new AtomicInteger());
        return stored.getAndUpdate(n -> (n + 1) % period) == 0;
    }

    /** Stores from one check of a license's bound to the next: a tenth of the bound, at least 1, at most {@link #MAX_PERIOD}. */
    public static int period(int bound) {
        return Math.max(1, Math.min(MAX_PERIOD, bound / 10));
    }
}
