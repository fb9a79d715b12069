package dev.keyright.client;

import java.time.Duration;
import java.util.function.DoubleSupplier;

/** Spreads delays so that many clients started together do not call the server in step. */
final class Jitter {

    private final DoubleSupplier random;

    /** @param random uniform values in [0, 1) */
    Jitter(DoubleSupplier random) {
        this.random = random;
    }

    /** {@code base} scaled by a factor uniform in [1 - fraction, 1 + fraction]. */
    Duration around(Duration base, double fraction) {
        double factor = 1 + fraction * (2 * random.getAsDouble() - 1);
        return scale(base, factor);
    }

    /** {@code base} scaled by a factor uniform in [1, 1 + fraction]: never earlier than asked. */
    Duration atLeast(Duration base, double fraction) {
        return scale(base, 1 + fraction * random.getAsDouble());
    }

    private static Duration scale(Duration base, double factor) {
        return Duration.ofNanos(Math.round(base.toNanos() * factor));
    }
}
