package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.ClusterView;
import io.leaderpacer.engine.config.GateDenominator;
import io.leaderpacer.engine.config.GateRecheck;
import io.leaderpacer.engine.config.MaxWaitClock;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.engine.config.PacerConfigFormat;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

import static io.leaderpacer.engine.config.GateRecheck.CLEAR_RUNS_TO_RELEASE;

/**
 * The wait-for-sync gate, evaluated once per run for every preferred broker: threshold,
 * hysteresis (release after {@value GateRecheck#CLEAR_RUNS_TO_RELEASE} consecutive clear runs, spanning at least
 * {@code hysteresis.min.ms} when that is set) and the
 * max-wait escape, decided on every run of an episode, clear runs included. A restart ends an
 * episode: an inactive broker has none (under the default clock).
 */
final class Gate {

    private Gate() {}

    /**
     * The gate's verdicts for one run.
     *
     * @param blocked per broker index of the snapshot, whether its preferred partitions are held back
     */
    record Verdicts(boolean[] blocked, List<BrokerGateReport> reports, SortedMap<Integer, BrokerGateState> nextGates) {}

    static Verdicts evaluate(
            ClusterView cluster, PreferredCounts counts, PacerConfig config, BalancerMemory memory, long nowMs) {
        int size = cluster.brokerCount();
        boolean[] blocked = new boolean[size];
        List<BrokerGateReport> reports = new ArrayList<>();
        SortedMap<Integer, BrokerGateState> next = new TreeMap<>();

        TreeSet<Integer> brokers = reported(cluster, counts, memory);
        String threshold = PacerConfigFormat.percent(config.thresholdPercent());
        boolean literal = config.gateDenominator() == GateDenominator.IMBALANCED_ONLY;
        boolean wall = config.maxWaitClock() == MaxWaitClock.WALL;

        for (int b : brokers) {
            int i = cluster.brokerIndexOf(b);
            boolean active = i >= 0 && cluster.isActiveAt(i);
            int total = i >= 0 ? counts.total[i] : 0;
            int imbalanced = i >= 0 ? counts.imbalanced[i] : 0;
            int outOfSync = i >= 0 ? counts.outOfSync[i] : 0;
            BrokerGateReport.PartitionCounts partitions =
                    new BrokerGateReport.PartitionCounts(total, imbalanced, outOfSync);
            BrokerGateReport.Ratio ratio = new BrokerGateReport.Ratio(
                    literal ? (i >= 0 ? counts.outOfSyncImbalanced[i] : 0) : outOfSync,
                    literal ? imbalanced : total,
                    config.thresholdPercent());

            if (!config.waitForSync()) {
                reports.add(new BrokerGateReport(
                        b,
                        active,
                        partitions,
                        ratio,
                        BrokerGateReport.Verdict.NOT_APPLICABLE,
                        BrokerGateReport.RunCounts.NONE));
                continue;
            }

            int numerator = ratio.numerator();
            int denominator = ratio.denominator();
            boolean over = ratio.over();
            String ratioText = numerator + "/" + denominator + " = " + percentWithTwoDecimals(numerator, denominator)
                    + "% out of sync " + (over ? ">" : "<=") + " threshold " + threshold + "%";
            Step step = step(
                    memory.gate(b),
                    active,
                    over,
                    wall,
                    config.maxWaitMs(),
                    config.recheck().hysteresisMinMs(),
                    nowMs,
                    ratioText);
            BrokerGateState now = step.next();
            if (now != null) {
                next.put(b, now);
            }
            if (step.phase().blocksElections() && i >= 0) {
                blocked[i] = true;
            }
            reports.add(new BrokerGateReport(
                    b, active, partitions, ratio, step.verdict(), BrokerGateReport.RunCounts.NONE));
        }
        return new Verdicts(blocked, reports, next);
    }

    /**
     * The brokers the gate reports on, by id: every registered one, every one preferred for a partition (a preferred
     * broker of a candidate under reassignment has no gate count, but has a report line), and every one with a gate
     * remembered from earlier runs.
     */
    private static TreeSet<Integer> reported(ClusterView cluster, PreferredCounts counts, BalancerMemory memory) {
        TreeSet<Integer> brokers = new TreeSet<>(cluster.registeredBrokerIds());
        for (int i = 0; i < cluster.brokerCount(); i++) {
            if (counts.total[i] > 0 || counts.candidatesPerBroker[i] > 0) {
                brokers.add(cluster.brokerIdAt(i));
            }
        }
        brokers.addAll(memory.gates().keySet());
        return brokers;
    }

    /** One broker's transition: its verdict this run, what to remember, and why. */
    private record Step(GatePhase phase, BrokerGateState next, String reason) {

        /** The verdict a report shows: the phase, the episode it remembers (none: -1 and zeros), and why. */
        BrokerGateReport.Verdict verdict() {
            return new BrokerGateReport.Verdict(
                    phase,
                    next == null ? -1 : next.episodeStartMs(),
                    next == null ? 0 : next.gatedMs(),
                    next == null ? 0 : next.clearRuns(),
                    reason);
        }
    }

    private static Step step(
            BrokerGateState prev,
            boolean active,
            boolean over,
            boolean wall,
            long maxWaitMs,
            long hysteresisMinMs,
            long nowMs,
            String ratio) {
        if (!active && !wall) {
            // A restart ends an episode: it cannot lead anyway, and coming back is a new recovery.
            return new Step(
                    GatePhase.INACTIVE,
                    null,
                    prev == null
                            ? "inactive (fenced, shutting down or not registered), cannot lead; no gating episode: "
                                    + ratio
                            : "inactive (fenced, shutting down or not registered): its gating episode since "
                                    + prev.episodeStartMs()
                                    + " ms ends; a new one starts if it is back over the threshold: " + ratio);
        }
        GatePhase quiet = active ? GatePhase.OPEN : GatePhase.INACTIVE;
        if (prev == null) {
            return over
                    ? new Step(GatePhase.GATED, BrokerGateState.startEpisode(nowMs), "gated at once: " + ratio)
                    : new Step(quiet, null, "under threshold: " + ratio);
        }
        long clock = Math.max(0, nowMs - prev.episodeStartMs());
        boolean maxWaitRanOut = maxWaitMs > 0 && clock >= maxWaitMs;
        if (prev.phase() == GatePhase.ESCAPED) {
            return over
                    ? new Step(
                            GatePhase.ESCAPED,
                            new BrokerGateState(GatePhase.ESCAPED, prev.episodeStartMs(), clock, 0),
                            "released by max-wait escape and stays released until it passes on its own: " + ratio)
                    : new Step(quiet, null, "passed the gate on its own after a max-wait escape: " + ratio);
        }
        if (over) {
            return maxWaitRanOut
                    ? new Step(
                            GatePhase.ESCAPED,
                            new BrokerGateState(GatePhase.ESCAPED, prev.episodeStartMs(), clock, 0),
                            "max-wait escape after " + clock + " ms gated (max.wait.ms " + maxWaitMs + "): " + ratio)
                    : new Step(
                            GatePhase.GATED,
                            new BrokerGateState(GatePhase.GATED, prev.episodeStartMs(), clock, 0),
                            "gated for " + clock + " ms: " + ratio);
        }
        int clear = prev.clearRuns() + 1;
        long clearSince = prev.clearRuns() == 0 ? nowMs : prev.clearSinceMs();
        long clearFor = Math.max(0, nowMs - clearSince);
        if (clear >= CLEAR_RUNS_TO_RELEASE && clearFor >= hysteresisMinMs) {
            return new Step(
                    quiet,
                    null,
                    "released after " + clear + " consecutive clear runs"
                            + (hysteresisMinMs > 0
                                    ? " over " + clearFor + " ms (hysteresis.min.ms " + hysteresisMinMs + ")"
                                    : "")
                            + ": " + ratio);
        }
        if (maxWaitRanOut) {
            // Released by the escape on a run it already passes on its own: the episode is over, and a
            // later run over the threshold starts a new one.
            return new Step(
                    quiet,
                    null,
                    "max-wait ran out after " + clock + " ms gated (max.wait.ms " + maxWaitMs
                            + ") on a clear run: released, and it passes on its own: " + ratio);
        }
        String held = clear < CLEAR_RUNS_TO_RELEASE
                ? "clear " + clear + "/" + CLEAR_RUNS_TO_RELEASE + " runs"
                : "clear " + clear + " runs over " + clearFor + " ms of hysteresis.min.ms " + hysteresisMinMs;
        return new Step(
                GatePhase.GATED,
                new BrokerGateState(GatePhase.GATED, prev.episodeStartMs(), clock, clear, clearSince),
                held + ", still gated (hysteresis): " + ratio);
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
}
