package dev.keyright.seats.configuration;

import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Logger;

/**
 * What a failed start does beyond its one message. On Payara Micro started from its jar, the process exists to
 * run this server: it exits with {@link #EXIT_STATUS}, so that a service manager or a container sees the
 * failure instead of a server that answers 404 forever. On any other server (Payara Server, GlassFish, an
 * embedded Payara Micro) only the deployment fails and the server keeps running. An operator who deploys
 * other applications beside this one on Payara Micro sets {@code KEYRIGHT_EXIT_ON_FAILED_START=false}.
 */
public final class FailedStart {

    /** {@code EX_CONFIG} of BSD's sysexits: a setting, the database or its credentials are wrong. */
    static final int EXIT_STATUS = 78;
    static final String SETTING = "KEYRIGHT_EXIT_ON_FAILED_START";
    /** Payara Micro's own mark of a process it launched from its jar. */
    static final String PAYARA_MICRO_BOOT_JAR = "fish.payara.micro.BootJar";
    private static final long HALT_AFTER_SECONDS = 20;

    private FailedStart() {
    }

    /** Whether this process should end after a failed start. */
    static boolean exits(Map<String, String> environment, Properties system) {
        String setting = environment.getOrDefault(SETTING, system.getProperty(SETTING, ""));
        if (setting.equalsIgnoreCase("false")) {
            return false;
        }
        return setting.equalsIgnoreCase("true") || system.getProperty(PAYARA_MICRO_BOOT_JAR) != null;
    }

    /**
     * Ends the process after the message was logged, if {@link #exits}; called on the deploying thread, so that
     * the container's own reports of the failed deployment (stack traces) do not follow the message. The
     * server's shutdown hooks run; should they not finish, the process is halted after 20 s.
     */
    public static void end(Logger log) {
        if (!exits(System.getenv(), System.getProperties())) {
            return;
        }
        for (Handler handler : Logger.getLogger("").getHandlers()) {
            handler.flush();
        }
        for (Handler handler : log.getHandlers()) {
            handler.flush();
        }
        Thread halt = new Thread(() -> {
            try {
                TimeUnit.SECONDS.sleep(HALT_AFTER_SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            Runtime.getRuntime().halt(EXIT_STATUS);
        }, "keyright-failed-start");
        halt.setDaemon(true);
        halt.start();
        System.exit(EXIT_STATUS);
    }
}
