package dev.keyright.seats.monitoring.boundary;

/** {@code dev.keyright:type=Reaper}: this node's lease reaper. */
public interface ReaperMXBean {
    /** RFC 3339 time of the last sweep, or empty before the first. */
    String getLastSweepTime();
    int getLastSweepRowsReaped();
    long getRowsReapedTotal();
    long getLastSweepDurationMillis();
}
