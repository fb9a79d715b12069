package dev.keyright.client;

/** A monotonic time source in nanoseconds, like {@link System#nanoTime()}; tests drive a fake one. */
@FunctionalInterface
public interface Ticker {

    long nanos();

    static Ticker system() {
        return System::nanoTime;
    }
}
