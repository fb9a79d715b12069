package dev.keyright.seats.leases.boundary;

import dev.keyright.seats.leases.entity.SeatEvent;
import dev.keyright.seats.leases.entity.SeatsExhaustedException;
import dev.keyright.seats.problems.ServiceUnavailableException;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The acquires held on this node ({@code Prefer: wait}): suspended requests, not threads. A pass over the
 * queue of each license with requests held here runs every {@link #TICK} and at once after a seat is freed
 * on this node; each pass is a checkout transaction ({@link Checkout#serve}) that hands free seats to the
 * head of the line. A seat freed on another node, or by expiry, is seen by the next tick.
 */
@ApplicationScoped
public class WaitingRoom {

    static final long TICK_MILLIS = 200;
    /** How much longer than its wait the container keeps a held request before answering it anyway. */
    static final int SAFETY_SECONDS = 5;
    private static final Logger LOG = Logger.getLogger(WaitingRoom.class.getName());

    @Resource
    ManagedScheduledExecutorService executor;
    @EJB
    Seats seats;

    /** Held requests by license, then by install: one per install (asking again replaces the earlier one). */
    private final Map<String, Map<String, Held>> rooms = new ConcurrentHashMap<>();
    private final ReentrantLock passing = new ReentrantLock();
    private final AtomicBoolean passAgain = new AtomicBoolean();
    private ScheduledFuture<?> ticker;

    /**
     * Holds a request that got a place in the queue for up to {@code waitSeconds}. Its place is seen while it is
     * held: neither JAX-RS nor the servlet container tells a held request that its client went away (Payara
     * reports no closed connection), so a killed client keeps its place for the rest of its hold plus the queue
     * keep. Clients bound that with short holds (the SDK asks for 20 s).
     */
    public void hold(Grant queued, int waitSeconds, AsyncResponse response) {
        Grant.Place place = queued.place();
        long now = System.nanoTime();
        Held held = new Held(response, place, queued.maxSeats(), waitSeconds, now, now + TimeUnit.SECONDS.toNanos(waitSeconds));
        held.position = place.position();
        response.setTimeout(waitSeconds + SAFETY_SECONDS, TimeUnit.SECONDS);
        response.setTimeoutHandler(late -> answer(held, SeatsExhaustedException.stillQueued(-1, held.maxSeats, held.position)));
        Held earlier = rooms.computeIfAbsent(place.licenseId(), id -> new ConcurrentHashMap<>())
                .put(held.install(), held);
        if (earlier != null) {
            earlier.response.resume(SeatsExhaustedException.stillQueued(-1, earlier.maxSeats, held.position));
        }
        startTicking();
    }

    /** The install gave up its place: its request held here, if any, ends now. */
    public void leave(String licenseId, String clientInstanceId) {
        Map<String, Held> room = rooms.get(licenseId);
        Held held = room == null ? null : room.get(clientInstanceId);
        if (held != null) {
            answer(held, SeatsExhaustedException.leftQueue(held.maxSeats));
        }
    }

    /** A seat was freed on this node: the waiters of its license hear of it now, not at the next tick. */
    void seatFreed(@Observes(during = TransactionPhase.AFTER_SUCCESS) SeatEvent event) {
        boolean frees = event.kind() == SeatEvent.Kind.RELEASED || event.kind() == SeatEvent.Kind.REVOKED
                || event.kind() == SeatEvent.Kind.EXPIRED;
        if (frees && rooms.containsKey(event.licenseId()) && executor != null) {
            executor.execute(this::pass);
        }
    }

    /** How many requests are held on this node now. */
    public int heldHere() {
        return rooms.values().stream().mapToInt(Map::size).sum();
    }

    private synchronized void startTicking() {
        if (ticker == null) {
            ticker = executor.scheduleWithFixedDelay(this::pass, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    /** One pass over every license with requests held here; a pass asked for while one runs runs after it. */
    void pass() {
        if (!passing.tryLock()) {
            passAgain.set(true);
            return;
        }
        try {
            do {
                passAgain.set(false);
                for (String licenseId : List.copyOf(rooms.keySet())) {
                    serve(licenseId);
                }
            } while (passAgain.get());
        } catch (RuntimeException | Error e) {
            LOG.log(Level.WARNING, "A pass over the seat queues failed; the next tick tries again", e);
        } finally {
            passing.unlock();
        }
    }

    private void serve(String licenseId) {
        Map<String, Held> room = rooms.get(licenseId);
        if (room == null) {
            return;
        }
        if (room.isEmpty()) {
            rooms.computeIfPresent(licenseId, (id, r) -> r.isEmpty() ? null : r);
            return;
        }
        long now = System.nanoTime();
        List<Held> present = List.copyOf(room.values());
        List<Waiter> waiters = present.stream().map(held -> new Waiter(held.place.holder(), held.place.claim(),
                Answers::of, TimeUnit.NANOSECONDS.toMillis(now - held.since))).toList();
        Optional<Turns> turns;
        try {
            turns = seats.serveQueue(licenseId, waiters);
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "A pass over a seat queue failed; the next tick tries again", e);
            turns = Optional.empty();
        }
        for (Held held : present) {
            if (turns.isPresent() && decided(held, turns.get())) {
                continue;
            }
            if (now >= held.deadline && answer(held, SeatsExhaustedException.stillQueued(
                    turns.map(Turns::seatsInUse).orElse(-1L), held.maxSeats, held.position))) {
                seats.waitEnded(licenseId, held.place.holder());
            }
        }
    }

    /** Whether the pass decided this request's end (a seat, a refusal, or a place given up); else notes its place. */
    private boolean decided(Held held, Turns turns) {
        if (turns.refusal() != null) {
            answer(held, turns.refusal());
            return true;
        }
        Grant grant = turns.granted().get(held.install());
        if (grant != null) {
            // whichever request of this install is held now gets the seat; if none is (it asked again on another
            // node, or went away), the install's next acquire is answered with this same lease
            Held current = rooms.getOrDefault(held.place.licenseId(), Map.of()).get(held.install());
            if (current != null) {
                answer(current, SeatsResource.answer(grant, "wait=" + current.waitSeconds));
            }
            return true;
        }
        Integer position = turns.positions().get(held.install());
        if (position == null) {
            answer(held, SeatsExhaustedException.leftQueue(held.maxSeats));
            return true;
        }
        held.position = position;
        return false;
    }

    /** Ends a held request with this answer, once: only the one who takes it out of the room answers it. */
    private boolean answer(Held held, Object answer) {
        Map<String, Held> room = rooms.get(held.place.licenseId());
        if (room == null || !room.remove(held.install(), held)) {
            return false;
        }
        if (answer instanceof Response response) {
            held.response.resume(response);
        } else {
            held.response.resume((Throwable) answer);
        }
        return true;
    }

    @PreDestroy
    void close() {
        if (ticker != null) {
            ticker.cancel(false);
        }
        rooms.values().forEach(room -> List.copyOf(room.values()).forEach(held -> answer(held,
                new ServiceUnavailableException("The server is stopping; nothing was granted. Retry shortly.", 1))));
    }

    /** One held request. */
    private static final class Held {
        final AsyncResponse response;
        final Grant.Place place;
        final int maxSeats;
        final int waitSeconds;
        final long since;
        final long deadline;
        volatile int position;

        Held(AsyncResponse response, Grant.Place place, int maxSeats, int waitSeconds, long since, long deadline) {
            this.response = response;
            this.place = place;
            this.maxSeats = maxSeats;
            this.waitSeconds = waitSeconds;
            this.since = since;
            this.deadline = deadline;
        }

        String install() {
            return place.holder().clientInstanceId();
        }
    }
}
