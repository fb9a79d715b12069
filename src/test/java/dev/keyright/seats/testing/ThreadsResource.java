package dev.keyright.seats.testing;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import java.util.Arrays;

/** Test deployments only: what the server's threads are doing (blocked reads from clients, Hazelcast). */
@Path("test-support/threads")
public class ThreadsResource {

    @GET
    @Path("blocked-reading")
    public String blockedReading() {
        long blocked = Thread.getAllStackTraces().values().stream()
                .filter(stack -> Arrays.stream(stack).anyMatch(frame -> frame.getClassName().contains("TemporarySelectorReader")
                        || frame.getClassName().endsWith("InputBuffer") && frame.getMethodName().startsWith("blocking")))
                .count();
        return String.valueOf(blocked);
    }

    /** Every live thread of the server's JVM. */
    @GET
    @Path("count")
    public String count() {
        return String.valueOf(java.lang.management.ManagementFactory.getThreadMXBean().getThreadCount());
    }

    /**
     * Threads inside a request now (in Jersey's request processing or in this application's code), this one
     * included: a request held without a thread is not among them.
     */
    @GET
    @Path("serving")
    public String serving() {
        return String.valueOf(Thread.getAllStackTraces().values().stream()
                .filter(stack -> Arrays.stream(stack).anyMatch(frame -> frame.getClassName().startsWith("org.glassfish.jersey.server.")
                        || frame.getClassName().startsWith("dev.keyright.seats.")))
                .count());
    }

    /** Hazelcast's threads are named {@code hz.<instance>...}: none when the server runs without it. */
    @GET
    @Path("hazelcast")
    public String hazelcast() {
        return String.valueOf(Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("hz.")).count());
    }
}
