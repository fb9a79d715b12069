package dev.keyright.client.cli;

import dev.keyright.client.KeyrightClient;
import dev.keyright.client.KeyrightException;
import dev.keyright.client.Lease;
import dev.keyright.client.SeatKeepAlive;
import dev.keyright.client.SeatState;
import dev.keyright.client.SeatStateListener;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code run -- COMMAND}: holds a seat while COMMAND runs (with the terminal's stdin, stdout and
 * stderr), releases it when COMMAND exits, and exits with COMMAND's exit code. On SIGTERM or
 * Ctrl-C a shutdown hook stops COMMAND and releases the seat. With {@code --kill-on-loss}, a lost
 * seat stops COMMAND and the exit code is {@link ExitCodes#SEAT_LOST}.
 */
final class RunCommand {

    private static final long STOP_GRACE_SECONDS = 10;

    private final KeyrightClient client;
    private final CliOptions options;
    private final Messages messages;
    private final AtomicReference<Process> child = new AtomicReference<>();
    private final AtomicBoolean lost = new AtomicBoolean();
    private final AtomicBoolean released = new AtomicBoolean();

    RunCommand(KeyrightClient client, CliOptions options, Messages messages) {
        this.client = client;
        this.options = options;
        this.messages = messages;
    }

    int run() {
        Lease lease = AcquireCommand.acquireWithin(client, options, messages);
        SeatKeepAlive keepAlive = client.keepAlive(lease, new SeatStateListener() {
            @Override
            public void seatStateChanged(SeatState previous, SeatState current, KeyrightException cause) {
                RunCommand.this.seatStateChanged(previous, current, cause);
            }

            @Override
            public void renewed(Lease renewed) {
                messages.renewed(renewed);
            }
        });
        messages.acquired(lease);
        Thread hook = new Thread(() -> {
            stop(child.get());
            release(keepAlive);
        }, "keyright-release-on-exit");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return runChild();
        } finally {
            release(keepAlive);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or has run: it released the seat
            }
        }
    }

    /** Gives the seat back (once, whether the command ended or a signal came) and says so with {@code --json}. */
    private void release(SeatKeepAlive keepAlive) {
        keepAlive.close();
        if (keepAlive.state() != SeatState.LOST && !released.getAndSet(true)) {
            messages.released(keepAlive.lease().leaseId());
        }
    }

    private int runChild() {
        Process process;
        try {
            process = new ProcessBuilder(options.childCommand).inheritIO().start();
        } catch (IOException e) {
            messages.error("cannot run " + options.childCommand.get(0) + ": " + e.getMessage());
            String why = String.valueOf(e.getMessage());
            return why.contains("error=2,") || why.contains("No such file") ? ExitCodes.COMMAND_NOT_FOUND
                    : ExitCodes.CANNOT_EXECUTE;
        }
        child.set(process);
        if (lost.get() && options.killOnLoss) stopInBackground(process);
        try {
            int code = process.waitFor();
            return lost.get() && options.killOnLoss ? ExitCodes.SEAT_LOST : code;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop(process);
            return 130;
        }
    }

    private void seatStateChanged(SeatState previous, SeatState current, KeyrightException cause) {
        messages.seatStateChanged(previous, current, cause, options.killOnLoss);
        if (current != SeatState.LOST) return;
        lost.set(true);
        if (options.killOnLoss) stopInBackground(child.get());
    }

    private static void stopInBackground(Process process) {
        if (process == null) return;
        Thread stopper = new Thread(() -> stop(process), "keyright-stop-command");
        stopper.setDaemon(true);
        stopper.start();
    }

    /** SIGTERM to the command and its descendants, then SIGKILL if it has not exited within the grace. */
    private static void stop(Process process) {
        if (process == null || !process.isAlive()) return;
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(STOP_GRACE_SECONDS, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
