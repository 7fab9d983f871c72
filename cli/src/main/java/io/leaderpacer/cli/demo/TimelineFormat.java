package io.leaderpacer.cli.demo;

import io.leaderpacer.agent.GatePhaseLabel;
import io.leaderpacer.engine.GatePhase;

import java.util.Locale;

/**
 * Renders timeline lines in fixed-width columns, so that a live run reads like a table and the
 * leadership ramp is visible at a glance (the bar).
 */
public final class TimelineFormat {

    /** Width of the leadership bar at 100% of the preferred partitions. */
    static final int BAR_WIDTH = 20;

    private final int restartedBroker;

    public TimelineFormat(int restartedBroker) {
        this.restartedBroker = restartedBroker;
    }

    /** The column header, naming the restarted broker. */
    public String header() {
        return String.format(Locale.ROOT, "%8s  %-6s  %-16s  %-8s  %-29s  %7s  %11s",
                "time", "b" + restartedBroker, "out-of-sync", "gate", "leaders on b" + restartedBroker,
                "elected", "produce p99");
    }

    /** One sample as a line under {@link #header()}. */
    public String line(TimelineSample s) {
        String outOfSync = String.format(Locale.ROOT, "%d/%d (%.0f%%)", s.outOfSync(), s.preferredPartitions(),
                s.outOfSyncPercent());
        String leaders = String.format(Locale.ROOT, "%4d %s", s.leaders(), bar(s.leaders(), s.preferredPartitions()));
        return String.format(Locale.ROOT, "%+7.1fs  %-6s  %-16s  %-8s  %-29s  %7d  %11s",
                s.atMs() / 1000.0, s.restartedActive() ? "up" : "down", outOfSync, phase(s.phase(), s.restartedActive()), leaders,
                s.elections(), latency(s.produceP99Ms()));
    }

    /** A line between samples telling what the demo did at that time (stop, restart...). */
    public static String event(long atMs, String text) {
        return String.format(Locale.ROOT, "%+7.1fs  >> %s", atMs / 1000.0, text);
    }

    /** A gate phase as the timeline shows it; {@code n/a} under {@code immediate}. */
    static String phase(GatePhase phase) {
        if (phase == null) {
            return "-";
        }
        return phase == GatePhase.NOT_APPLICABLE ? "n/a" : phase.name().toLowerCase(Locale.ROOT);
    }

    /** The phase of the restarted broker, {@code inactive} while it is down (the words of plan and /status). */
    static String phase(GatePhase phase, boolean active) {
        return phase == null || phase == GatePhase.NOT_APPLICABLE && active ? phase(phase)
                : GatePhaseLabel.of(phase, active).toLowerCase(Locale.ROOT);
    }

    /** A latency in milliseconds, or {@code -} when nothing was measured. */
    static String latency(double ms) {
        if (Double.isNaN(ms)) {
            return "-";
        }
        return String.format(Locale.ROOT, "%.1f ms", ms);
    }

    /** A percentage without a needless ".0". */
    static String percent(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }

    /** {@code [####      ]}: the share of preferred partitions led, in {@link #BAR_WIDTH} steps. */
    static String bar(int leaders, int total) {
        int filled = total <= 0 ? 0 : (int) Math.round((double) BAR_WIDTH * Math.min(leaders, total) / total);
        return "[" + "#".repeat(filled) + " ".repeat(BAR_WIDTH - filled) + "]";
    }
}
