package io.leaderpacer.loadtest.load;

import org.HdrHistogram.Histogram;
import org.apache.kafka.common.protocol.Errors;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every send of one round: its latency in an HdrHistogram per phase and cell (static class × broker role), its error
 * by Kafka error name, and one-second summaries per view for the time series.
 *
 * <p>Why two granularities: the verdict needs exact percentiles over whole phases (3 significant digits, phase taken
 * when the send was made); the charts need a P99 per second (taken when the send completed, as latency logs do). The
 * per-second histograms are summarised and reset every second, so memory does not grow with the run's length.
 *
 * <p>Thread-safe: producers' I/O threads record, a ticker rolls the seconds, the round reads at the end.
 */
public final class LatencyBook {

    /** Latencies are kept in microseconds, up to 10 minutes (a send never waits longer than its delivery time-out). */
    private static final long HIGHEST_MICROS = 600_000_000L;

    private static final int CELLS = SendClass.values().length * BrokerRole.values().length;

    /** [phase][cell], 3 significant digits. */
    private final Histogram[][] phases = new Histogram[Phase.values().length][CELLS];
    /** [phase][cell] error name → count. */
    private final List<List<Map<String, Long>>> errors = new ArrayList<>();
    /** The second being filled, per cell, 2 significant digits (only its P50/P99/max are kept). */
    private final Histogram[] currentSecond = new Histogram[CELLS];

    private final long[] currentSecondErrors = new long[CELLS];
    /** The window being filled, per cell: sends completed since {@link #closeWindow()} was last called. */
    private final Histogram[] currentWindow = new Histogram[CELLS];
    /** Summaries of the seconds rolled so far. */
    private final List<SecondSample> seconds = new ArrayList<>();

    public LatencyBook() {
        for (Phase p : Phase.values()) {
            List<Map<String, Long>> perCell = new ArrayList<>();
            for (int c = 0; c < CELLS; c++) {
                phases[p.ordinal()][c] = new Histogram(1, HIGHEST_MICROS, 3);
                perCell.add(new TreeMap<>());
            }
            errors.add(perCell);
        }
        for (int c = 0; c < CELLS; c++) {
            currentSecond[c] = new Histogram(1, HIGHEST_MICROS, 2);
            currentWindow[c] = new Histogram(1, HIGHEST_MICROS, 3);
        }
    }

    private static int cell(SendClass sendClass, BrokerRole role) {
        return sendClass.ordinal() * BrokerRole.values().length + role.ordinal();
    }

    private static SendClass classOf(int cell) {
        return SendClass.values()[cell / BrokerRole.values().length];
    }

    private static BrokerRole roleOf(int cell) {
        return BrokerRole.values()[cell % BrokerRole.values().length];
    }

    /**
     * One send's outcome.
     *
     * @param phase        the phase when the send was made
     * @param sendClass    its partition's class
     * @param role         the restarted broker's role in the partition when the send was made
     * @param latencyNanos from {@code send()} to the acknowledgement or the failure
     * @param error        null on success
     */
    public synchronized void record(
            Phase phase, SendClass sendClass, BrokerRole role, long latencyNanos, Exception error) {
        int c = cell(sendClass, role);
        long micros = Math.max(1, Math.min(HIGHEST_MICROS, latencyNanos / 1000));
        phases[phase.ordinal()][c].recordValue(micros);
        currentSecond[c].recordValue(micros);
        currentWindow[c].recordValue(micros);
        if (error != null) {
            errors.get(phase.ordinal()).get(c).merge(errorName(error), 1L, Long::sum);
            currentSecondErrors[c]++;
        }
    }

    /** Kafka's name for a send that timed out: the request's time-out or the producer's delivery time-out. */
    public static final String TIMEOUT = Errors.REQUEST_TIMED_OUT.name();

    /**
     * Kafka's name for a failure (e.g. {@code REQUEST_TIMED_OUT}, {@code NOT_LEADER_OR_FOLLOWER}); a producer's own
     * delivery time-out is Kafka's time-out too.
     */
    static String errorName(Exception error) {
        Errors e = Errors.forException(error);
        return e == Errors.UNKNOWN_SERVER_ERROR ? "CLIENT_" + error.getClass().getSimpleName() : e.name();
    }

    /** Closes the second that just ended: its summaries are kept per view, its histograms emptied. */
    public synchronized void rollSecond(long second) {
        for (View view : View.values()) {
            Histogram merged = new Histogram(1, HIGHEST_MICROS, 2);
            long errs = 0;
            for (int c = 0; c < CELLS; c++) {
                if (view.includes(classOf(c), roleOf(c))) {
                    merged.add(currentSecond[c]);
                    errs += currentSecondErrors[c];
                }
            }
            long n = merged.getTotalCount();
            seconds.add(new SecondSample(
                    second,
                    view,
                    n,
                    errs,
                    n == 0 ? Double.NaN : merged.getValueAtPercentile(50) / 1000.0,
                    n == 0 ? Double.NaN : merged.getValueAtPercentile(99) / 1000.0,
                    n == 0 ? Double.NaN : merged.getMaxValue() / 1000.0));
        }
        for (int c = 0; c < CELLS; c++) {
            currentSecond[c].reset();
            currentSecondErrors[c] = 0;
        }
    }

    /**
     * Closes the window that just ended (the sends completed since the last call, whatever their phase) and starts
     * the next: its figures per view. The warm-up and the steady phase are judged window by window, so that one
     * disturbed stretch shows as one window and not as the whole phase.
     */
    public synchronized Map<View, LatencyFigures> closeWindow() {
        Map<View, LatencyFigures> out = new EnumMap<>(View.class);
        for (View view : View.values()) {
            Histogram merged = new Histogram(1, HIGHEST_MICROS, 3);
            for (int c = 0; c < CELLS; c++) {
                if (view.includes(classOf(c), roleOf(c))) {
                    merged.add(currentWindow[c]);
                }
            }
            out.put(view, LatencyFigures.of(merged));
        }
        for (Histogram h : currentWindow) {
            h.reset();
        }
        return out;
    }

    /** A copy of the latencies (µs) of one view's sends made in one phase. */
    public synchronized Histogram histogram(Phase phase, View view) {
        Histogram merged = new Histogram(1, HIGHEST_MICROS, 3);
        for (int c = 0; c < CELLS; c++) {
            if (view.includes(classOf(c), roleOf(c))) {
                merged.add(phases[phase.ordinal()][c]);
            }
        }
        return merged;
    }

    /** Failures of one view's sends made in one phase, by Kafka error name. */
    public synchronized Map<String, Long> errors(Phase phase, View view) {
        Map<String, Long> out = new TreeMap<>();
        for (int c = 0; c < CELLS; c++) {
            if (view.includes(classOf(c), roleOf(c))) {
                errors.get(phase.ordinal()).get(c).forEach((k, v) -> out.merge(k, v, Long::sum));
            }
        }
        return out;
    }

    /** Every one-second summary so far, in order of second, then view. */
    public synchronized List<SecondSample> seconds() {
        return List.copyOf(seconds);
    }

    /** Sends made in each phase, for every view (a check that the classes partition the sends). */
    public synchronized Map<Phase, Map<View, Long>> counts() {
        Map<Phase, Map<View, Long>> out = new EnumMap<>(Phase.class);
        for (Phase p : Phase.values()) {
            Map<View, Long> byView = new EnumMap<>(View.class);
            for (View v : View.values()) {
                byView.put(v, histogram(p, v).getTotalCount());
            }
            out.put(p, byView);
        }
        return out;
    }
}
