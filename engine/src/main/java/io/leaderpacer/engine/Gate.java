package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.config.GateDenominator;
import io.leaderpacer.engine.config.MaxWaitClock;
import io.leaderpacer.engine.config.PacerConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The wait-for-sync gate, evaluated once per run for every preferred broker: threshold,
 * hysteresis (release after {@value #CLEAR_RUNS_TO_RELEASE} consecutive clear runs) and the
 * max-wait escape, whose clock runs only while the broker is active.
 */
final class Gate {

    /** The seed's hysteresis constant: internal, not configurable in v1. */
    static final int CLEAR_RUNS_TO_RELEASE = 2;

    private Gate() {
    }

    /** The gate's verdicts for one run. */
    record Verdicts(boolean[] blocked, List<BrokerGateReport> reports, SortedMap<Integer, BrokerGateState> nextGates) {
    }

    static Verdicts evaluate(ClusterSnapshot cluster, PreferredCounts counts, PacerConfig config,
                             BalancerMemory memory, long nowMs) {
        int size = counts.brokerTableSize();
        boolean[] blocked = new boolean[size];
        List<BrokerGateReport> reports = new ArrayList<>();
        SortedMap<Integer, BrokerGateState> next = new TreeMap<>();

        TreeSet<Integer> brokers = new TreeSet<>(cluster.brokers().keySet());
        for (int b = 0; b < size; b++) {
            if (counts.total[b] > 0) {
                brokers.add(b);
            }
        }
        brokers.addAll(memory.gates().keySet());
        String threshold = io.leaderpacer.engine.config.PacerConfigFormat.percent(config.thresholdPercent());

        for (int b : brokers) {
            boolean active = cluster.isActive(b);
            int total = b < size ? counts.total[b] : 0;
            int imbalanced = b < size ? counts.imbalanced[b] : 0;
            int outOfSync = b < size ? counts.outOfSync[b] : 0;
            boolean literal = config.gateDenominator() == GateDenominator.IMBALANCED_ONLY;
            int denominator = literal ? imbalanced : total;
            int numerator = literal ? (b < size ? counts.outOfSyncImbalanced[b] : 0) : outOfSync;

            if (!config.waitForSync()) {
                reports.add(new BrokerGateReport(b, active, total, imbalanced, outOfSync, denominator, numerator,
                        config.thresholdPercent(), GatePhase.NOT_APPLICABLE, -1, 0, 0, 0, 0, 0,
                        "algorithm is immediate: no gate"));
                continue;
            }

            boolean over = denominator > 0 && numerator * 100.0 > config.thresholdPercent() * denominator;
            String ratio = numerator + "/" + denominator + " = " + percentWithTwoDecimals(numerator, denominator)
                    + "% out of sync " + (over ? ">" : "<=") + " threshold " + threshold + "%";
            BrokerGateState prev = memory.gate(b);
            BrokerGateState now;
            String reason;

            if (prev == null) {
                if (over && (active || config.maxWaitClock() == MaxWaitClock.WALL)) {
                    now = BrokerGateState.startEpisode(nowMs, active);
                    reason = "gated at once: " + ratio;
                } else {
                    now = null;
                    reason = over ? "inactive, cannot lead; the gate starts when it is back: " + ratio
                            : "under threshold: " + ratio;
                }
            } else if (prev.phase() == GatePhase.ESCAPED) {
                if (!over) {
                    now = null;
                    reason = "passed the gate on its own after a max-wait escape: " + ratio;
                } else if (!active && config.maxWaitClock() == MaxWaitClock.WHILE_ACTIVE) {
                    now = null;
                    reason = "went inactive after a max-wait escape; a new episode starts when it is back: " + ratio;
                } else {
                    now = prev;
                    reason = "released by max-wait escape and stays released until it passes on its own: " + ratio;
                }
            } else {
                long clock = advanceClock(prev, config.maxWaitClock(), active, nowMs);
                long lastActive = active ? nowMs : -1;
                if (!over) {
                    int clear = prev.clearRuns() + 1;
                    if (clear >= CLEAR_RUNS_TO_RELEASE) {
                        now = null;
                        reason = "released after " + clear + " consecutive clear runs: " + ratio;
                    } else {
                        now = new BrokerGateState(GatePhase.GATED, prev.episodeStartMs(), clock, lastActive, clear);
                        reason = "clear " + clear + "/" + CLEAR_RUNS_TO_RELEASE + " runs, still gated (hysteresis): " + ratio;
                    }
                } else if (config.maxWaitMs() > 0 && clock >= config.maxWaitMs()) {
                    now = new BrokerGateState(GatePhase.ESCAPED, prev.episodeStartMs(), clock, lastActive, 0);
                    reason = "max-wait escape after " + clock + " ms gated (max.wait.ms " + config.maxWaitMs() + "): " + ratio;
                } else {
                    now = new BrokerGateState(GatePhase.GATED, prev.episodeStartMs(), clock, lastActive, 0);
                    reason = (active ? "gated for " + clock + " ms: " : "gated, inactive (max-wait clock paused at "
                            + clock + " ms): ") + ratio;
                }
            }

            GatePhase phase = now == null ? GatePhase.OPEN : now.phase();
            if (now != null) {
                next.put(b, now);
            }
            if (phase.blocksElections() && b < size) {
                blocked[b] = true;
            }
            reports.add(new BrokerGateReport(b, active, total, imbalanced, outOfSync, denominator, numerator,
                    config.thresholdPercent(), phase, now == null ? -1 : now.episodeStartMs(),
                    now == null ? 0 : now.gatedActiveMs(), now == null ? 0 : now.clearRuns(), 0, 0, 0, reason));
        }
        return new Verdicts(blocked, reports, next);
    }

    /**
     * {@code 100 * numerator / denominator} with two decimals, rounded half up, as
     * {@code %.2f} prints it, without {@link String#format}: a run explains a thousand brokers,
     * and the formatter would cost more than the rest of the gate.
     */
    static String percentWithTwoDecimals(int numerator, int denominator) {
        if (denominator == 0) {
            return "0.00";
        }
        long hundredths = (20_000L * numerator + denominator) / (2L * denominator);
        long fraction = hundredths % 100;
        return (hundredths / 100) + (fraction < 10 ? ".0" : ".") + fraction;
    }

    private static long advanceClock(BrokerGateState prev, MaxWaitClock clock, boolean active, long nowMs) {
        if (clock == MaxWaitClock.WALL) {
            return Math.max(0, nowMs - prev.episodeStartMs());
        }
        if (active && prev.lastActiveRunMs() >= 0) {
            return prev.gatedActiveMs() + Math.max(0, nowMs - prev.lastActiveRunMs());
        }
        return prev.gatedActiveMs();
    }
}
