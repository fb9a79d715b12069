package dev.keyright.seats.monitoring.boundary;

import java.util.function.Supplier;

/**
 * JMX calls arrive on the JMX connector's threads, outside the application; CDI and EJB proxies need
 * the application's class loader as the context class loader. Captured where the MXBean is created.
 */
final class ApplicationContext {

    private final ClassLoader loader = Thread.currentThread().getContextClassLoader();

    <T> T call(Supplier<T> read) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            return read.get();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }
}
