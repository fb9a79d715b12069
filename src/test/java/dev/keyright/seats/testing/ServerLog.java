package dev.keyright.seats.testing;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Test deployments only: what the server logged at WARNING or above since the last mark, read from a
 * handler on the root logger of the server's own JVM (container and application loggers alike).
 */
@Path("test-support/log")
public class ServerLog {

    private static final Recorder RECORDER = new Recorder();

    static {
        Logger.getLogger("").addHandler(RECORDER);
    }

    /** Forgets what was recorded so far. */
    @POST
    @Path("mark")
    public String mark() {
        RECORDER.clear();
        return "marked";
    }

    /** Every WARNING-or-worse record since the mark: level, logger, message and the thrown type, if any. */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public String warnings() {
        JsonArrayBuilder all = Json.createArrayBuilder();
        RECORDER.records().forEach(all::add);
        return all.build().toString();
    }

    private static final class Recorder extends Handler {
        private final List<String> records = new ArrayList<>();

        @Override
        public synchronized void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                String message = String.valueOf(record.getMessage());
                records.add(record.getLevel() + " " + record.getLoggerName() + ": "
                        + message.substring(0, Math.min(300, message.length()))
                        + (record.getThrown() == null ? "" : " [" + record.getThrown() + thrownAt(record.getThrown()) + "]"));
            }
        }

        private static String thrownAt(Throwable thrown) {
            StackTraceElement[] stack = thrown.getStackTrace();
            return stack.length == 0 ? "" : " at " + stack[0].getClassName() + "." + stack[0].getMethodName();
        }

        synchronized void clear() {
            records.clear();
        }

        synchronized List<String> records() {
            return new ArrayList<>(records);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
