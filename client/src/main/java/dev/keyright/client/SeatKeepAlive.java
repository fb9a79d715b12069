package dev.keyright.client;

import java.time.Duration;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps a seat: renews the lease at {@code renewAfterSeconds} (±10% jitter) counted from each
 * lease's request, rides out transient failures with a short backoff ({@link SeatState#UNCERTAIN}),
 * and declares the seat {@link SeatState#LOST} when the lease's local, monotonic deadline passes
 * without a renewal. The wall clock and the server's {@code expiresAt} are never consulted.
 * When the server says the lease is gone (410, 404) it re-acquires once under a new idempotency key.
 * {@link #close()} stops renewing and releases the seat at once.
 */
public final class SeatKeepAlive implements AutoCloseable {

    static final double RENEW_JITTER = 0.10;
    static final Duration FIRST_RETRY = Duration.ofSeconds(1);
    static final Duration LONGEST_RETRY = Duration.ofSeconds(10);
    private static final Logger LOG = Logger.getLogger(SeatKeepAlive.class.getName());
    private static final Runnable NOTHING = () -> { };

    private final KeyrightClient client;
    private final Scheduler scheduler;
    private final ExecutorScheduler ownScheduler;
    private final Ticker ticker;
    private final Jitter jitter;
    private final SeatStateListener listener;
    private final Object closing = new Object();

    private Lease lease;
    private SeatState state = SeatState.HELD;
    private boolean closed;
    private Duration retryPause = FIRST_RETRY;
    private KeyrightException lastFailure;
    private Scheduler.Scheduled renewal = NOTHING::run;
    private Scheduler.Scheduled deadline = NOTHING::run;

    private SeatKeepAlive(KeyrightClient client, Lease lease, SeatStateListener listener) {
        this.client = client;
        this.lease = lease;
        this.listener = listener;
        this.ticker = client.ticker();
        this.jitter = client.jitter();
        this.ownScheduler = client.scheduler().isPresent() ? null : new ExecutorScheduler();
        this.scheduler = client.scheduler().orElse(ownScheduler);
    }

    /** Starts keeping {@code lease}, acquired or renewed by {@code client}. */
    public static SeatKeepAlive start(KeyrightClient client, Lease lease, SeatStateListener listener) {
        SeatKeepAlive keepAlive = new SeatKeepAlive(client, lease, listener);
        synchronized (keepAlive) {
            keepAlive.scheduleFor(lease);
        }
        return keepAlive;
    }

    public synchronized SeatState state() {
        return state;
    }

    /** The current lease: renewals replace its token, a re-acquire replaces it altogether. */
    public synchronized Lease lease() {
        return lease;
    }

    /**
     * Stops renewing and releases the seat now (best-effort; an expired lease counts as released).
     * A second caller, e.g. a shutdown hook racing the main thread, returns only once the release is done.
     */
    @Override
    public void close() {
        synchronized (closing) {
            Lease last;
            synchronized (this) {
                if (closed) return;
                closed = true;
                renewal.cancel();
                deadline.cancel();
                last = lease;
            }
            try {
                client.releaseQuietly(last.leaseId());
            } finally {
                if (ownScheduler != null) ownScheduler.close();
            }
        }
    }

    private void scheduleFor(Lease current) {
        renewal.cancel();
        deadline.cancel();
        long now = ticker.nanos();
        deadline = scheduler.schedule(this::expire, Duration.ofNanos(current.localDeadlineNanos() - now));
        long renewAt = current.requestedAtNanos() + jitter.around(current.renewAfter(), RENEW_JITTER).toNanos();
        renewal = scheduler.schedule(this::renew, Duration.ofNanos(Math.max(0, renewAt - now)));
    }

    private void renew() {
        Lease current;
        synchronized (this) {
            if (!active()) return;
            current = lease;
        }
        if (ticker.nanos() >= current.localDeadlineNanos()) {
            expire();
            return;
        }
        try {
            hold(client.renewSeat(current));
        } catch (TransientException e) {
            retryLater(e);
        } catch (LeaseExpiredException | LeaseNotFoundException e) {
            reacquire(e);
        } catch (KeyrightException e) {
            lose(e);
        } catch (RuntimeException e) {
            lose(new KeyrightException("Unexpected failure while renewing the seat", e));
        }
    }

    private void reacquire(KeyrightException cause) {
        Runnable notice;
        synchronized (this) {
            if (!active()) return;
            notice = change(SeatState.UNCERTAIN, cause);
        }
        notice.run();
        try {
            hold(client.acquireSeat());
        } catch (KeyrightException e) {
            lose(e);
        }
    }

    private void hold(Lease fresh) {
        Runnable notice;
        synchronized (this) {
            if (!active()) {
                notice = () -> client.releaseQuietly(fresh.leaseId());
            } else {
                lease = fresh;
                lastFailure = null;
                retryPause = FIRST_RETRY;
                scheduleFor(fresh);
                Runnable changed = change(SeatState.HELD, null);
                notice = () -> {
                    changed.run();
                    tell(() -> listener.renewed(fresh));
                };
            }
        }
        notice.run();
    }

    private void retryLater(TransientException failure) {
        Runnable notice;
        synchronized (this) {
            if (!active()) return;
            lastFailure = failure;
            Duration pause = jitter.around(retryPause, RENEW_JITTER);
            renewal = scheduler.schedule(this::renew, max(pause, failure.retryAfter().orElse(Duration.ZERO)));
            Duration doubled = retryPause.multipliedBy(2);
            retryPause = doubled.compareTo(LONGEST_RETRY) > 0 ? LONGEST_RETRY : doubled;
            notice = change(SeatState.UNCERTAIN, failure);
        }
        notice.run();
    }

    private void expire() {
        Runnable notice;
        synchronized (this) {
            if (!active() || ticker.nanos() < lease.localDeadlineNanos()) return;
            notice = loseNow(new KeyrightException("The seat could not be renewed before its lease ran out",
                    lastFailure));
        }
        notice.run();
    }

    private void lose(KeyrightException cause) {
        Runnable notice;
        synchronized (this) {
            if (!active()) return;
            notice = loseNow(cause);
        }
        notice.run();
    }

    private boolean active() {
        return !closed && state != SeatState.LOST;
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private Runnable loseNow(KeyrightException cause) {
        renewal.cancel();
        deadline.cancel();
        return change(SeatState.LOST, cause);
    }

    private Runnable change(SeatState next, KeyrightException cause) {
        SeatState previous = state;
        if (previous == next) return NOTHING;
        state = next;
        return () -> tell(() -> listener.seatStateChanged(previous, next, cause));
    }

    private static void tell(Runnable notice) {
        try {
            notice.run();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Seat state listener failed", e);
        }
    }
}
