package dev.keyright.client;

import java.time.Clock;
import java.time.Duration;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps an activation's certificate fresh while the app runs: refreshes it at its {@code revalidateAfter} on the
 * wall clock (plus up to 10% of the wait, so machines started together do not call in step), so a machine that
 * is online never comes near the certificate's {@code exp}. A failed refresh is tried again later, after 1 minute,
 * doubling to 1 hour (never sooner than {@code Retry-After}): the stored certificate stays valid offline until its
 * {@code exp} meanwhile, so nothing is lost by waiting. When the server says the activation ended (410) or is
 * unknown (404), the certificate is deleted, the listener told, and the keeper stops.
 * {@link #close()} stops refreshing; it does not deactivate.
 */
public final class ActivationKeeper implements AutoCloseable {

    static final double JITTER = 0.10;
    static final Duration FIRST_RETRY = Duration.ofMinutes(1);
    static final Duration LONGEST_RETRY = Duration.ofHours(1);
    private static final Logger LOG = Logger.getLogger(ActivationKeeper.class.getName());

    private final KeyrightClient client;
    private final Scheduler scheduler;
    private final ExecutorScheduler ownScheduler;
    private final Clock clock;
    private final Jitter jitter;
    private final ActivationListener listener;

    private Activation activation;
    private boolean stopped;
    private Duration retryPause = FIRST_RETRY;
    private Scheduler.Scheduled refresh = () -> { };

    private ActivationKeeper(KeyrightClient client, Activation activation, ActivationListener listener) {
        this.client = client;
        this.activation = activation;
        this.listener = listener;
        this.clock = client.clock();
        this.jitter = client.jitter();
        this.ownScheduler = client.scheduler().isPresent() ? null : new ExecutorScheduler();
        this.scheduler = client.scheduler().orElse(ownScheduler);
    }

    /** Starts keeping {@code activation}, as {@code client} activated, refreshed or checked it. */
    public static ActivationKeeper start(KeyrightClient client, Activation activation, ActivationListener listener) {
        ActivationKeeper keeper = new ActivationKeeper(client, activation, listener);
        synchronized (keeper) {
            keeper.scheduleFor(activation);
        }
        return keeper;
    }

    /** The activation as last refreshed. */
    public synchronized Activation activation() {
        return activation;
    }

    /** True once the activation ended (the listener was told) or the keeper was closed. */
    public synchronized boolean stopped() {
        return stopped;
    }

    /** Stops refreshing. The activation and its stored certificate stay: deactivating is a decision of its own. */
    @Override
    public void close() {
        synchronized (this) {
            stopped = true;
            refresh.cancel();
        }
        if (ownScheduler != null) ownScheduler.close();
    }

    private void scheduleFor(Activation current) {
        Duration wait = Duration.between(clock.instant(), current.revalidateAfter());
        if (wait.isNegative()) wait = Duration.ZERO;
        refresh = scheduler.schedule(this::refresh, jitter.atLeast(wait, JITTER));
    }

    private void refresh() {
        synchronized (this) {
            if (stopped) return;
        }
        try {
            Activation fresh = client.refreshActivation();
            synchronized (this) {
                if (stopped) return;
                activation = fresh;
                retryPause = FIRST_RETRY;
                scheduleFor(fresh);
            }
            tell(() -> listener.refreshed(fresh));
        } catch (ActivationEndedException | ActivationNotFoundException | OfflineLicenseNotFoundException ended) {
            synchronized (this) {
                if (stopped) return;
                stopped = true;
            }
            tell(() -> listener.activationEnded(ended));
            if (ownScheduler != null) ownScheduler.close();
        } catch (KeyrightException e) {
            retryLater(e);
        } catch (RuntimeException e) {
            retryLater(new KeyrightException("Unexpected failure while refreshing the activation", e));
        }
    }

    private void retryLater(KeyrightException failure) {
        synchronized (this) {
            if (stopped) return;
            Duration pause = jitter.around(retryPause, JITTER);
            if (failure instanceof TransientException) {
                Duration asked = ((TransientException) failure).retryAfter().orElse(Duration.ZERO);
                if (asked.compareTo(pause) > 0) pause = asked;
            }
            refresh = scheduler.schedule(this::refresh, pause);
            Duration doubled = retryPause.multipliedBy(2);
            retryPause = doubled.compareTo(LONGEST_RETRY) > 0 ? LONGEST_RETRY : doubled;
        }
        tell(() -> listener.refreshFailed(failure));
    }

    private static void tell(Runnable notice) {
        try {
            notice.run();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Activation listener failed", e);
        }
    }
}
