package io.leaderpacer.engine;

import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.engine.schedule.PeriodicTask;
import io.leaderpacer.engine.schedule.RunOutcome;

import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The outcome of one run of the preferred-leader task: what to elect, what was held back and
 * why, and what the next run must remember.
 *
 * @param atMs                the run's time, as given
 * @param config              the configuration the run used
 * @param elections           leader changes to make, in order
 * @param moreWork            the run reached {@code max.per.run}: Kafka's "more work remains"
 * @param imbalancedCount     partitions not led by their effective preferred replica
 *                            (Kafka's PreferredReplicaImbalanceCount)
 * @param skippedByGate       elections the gate held back (PreferredLeaderElectionsSkippedByGate)
 * @param deferredByThrottle  valid elections beyond the cap (PreferredLeaderElectionsDeferredByThrottle)
 * @param brokers             per broker: counts, gate verdict, reason; ascending id
 * @param nextMemory          the memory to pass to the next run
 */
public record ElectionDecision(
        long atMs,
        PacerConfig config,
        List<Election> elections,
        boolean moreWork,
        int imbalancedCount,
        int skippedByGate,
        int deferredByThrottle,
        List<BrokerGateReport> brokers,
        BalancerMemory nextMemory) {

    public ElectionDecision {
        elections = List.copyOf(elections);
        brokers = List.copyOf(brokers);
    }

    /** Brokers the gate holds back this run (the GatedBrokerCount metric). */
    public int gatedBrokerCount() {
        int n = 0;
        for (BrokerGateReport r : brokers) {
            if (r.blocksElections()) {
                n++;
            }
        }
        return n;
    }

    /** The report for one broker, or {@code null} when the run knows nothing of it. */
    public BrokerGateReport broker(int id) {
        for (BrokerGateReport r : brokers) {
            if (r.broker() == id) {
                return r;
            }
        }
        return null;
    }

    /** Whether the broker may receive elections this run. */
    public boolean isGated(int broker) {
        BrokerGateReport r = broker(broker);
        return r != null && r.blocksElections();
    }

    /**
     * The brokers whose preferred partitions can still change the next decision on their own: gated, down, or out
     * of sync on one of them. A re-check reads their topics ({@link io.leaderpacer.engine.cluster.ReadScope}).
     */
    public SortedSet<Integer> recoveringBrokers() {
        SortedSet<Integer> out = new TreeSet<>();
        for (BrokerGateReport r : brokers) {
            if (r.blocksElections() || !r.active() || r.partitions().outOfSync() > 0) {
                out.add(r.broker());
            }
        }
        return out;
    }

    /** Elections whose new leader is the given broker. */
    public long electionsTo(int broker) {
        return elections.stream().filter(e -> e.newLeader() == broker).count();
    }

    /** How the run ended for the schedule: more work (capped), a broker left gated, or done. */
    public RunOutcome outcome() {
        if (moreWork) {
            return RunOutcome.MORE_WORK;
        }
        return gatedBrokerCount() > 0 ? RunOutcome.GATED : RunOutcome.DONE;
    }

    /** When the next run should start, by Kafka's periodic-task rules (and the re-check extension, when on). */
    public long nextRunDelayMs() {
        return PeriodicTask.electPreferred(config).nextDelayMs(outcome());
    }

    /** Why the next run comes when it does, for logs, {@code pacer plan} and {@code /status}. */
    public String nextRunReason() {
        long delay = nextRunDelayMs();
        switch (outcome()) {
            case MORE_WORK:
                return config.throttleIntervalMs() > 0 ? "cap reached: throttle.interval.ms" : "cap reached: at once";
            case GATED:
                return delay < PeriodicTask.electPreferred(config).periodMs()
                        ? "a broker is gated: recheck.interval.ms"
                        : "check interval";
            default:
                return "check interval";
        }
    }

    /** A multi-line explanation of the run for logs and {@code pacer plan}. */
    public String explain() {
        StringBuilder sb = new StringBuilder();
        sb.append("run at ")
                .append(atMs)
                .append(" ms: ")
                .append(elections.size())
                .append(" elections")
                .append(moreWork ? " (cap " + config.maxPerRun() + " reached, more work)" : "")
                .append(", ")
                .append(skippedByGate)
                .append(" skipped by gate, ")
                .append(deferredByThrottle)
                .append(" deferred by throttle, ")
                .append(imbalancedCount)
                .append(" imbalanced; next run in ")
                .append(nextRunDelayMs())
                .append(" ms (")
                .append(nextRunReason())
                .append(")\n");
        for (BrokerGateReport r : brokers) {
            sb.append("  ").append(r.explain()).append('\n');
        }
        return sb.toString();
    }
}
