package io.leaderpacer.agent.http;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.leaderpacer.agent.PacerAgent;
import io.leaderpacer.agent.core.CatchUpQuota;
import io.leaderpacer.agent.core.ElectionResult;
import io.leaderpacer.agent.core.GatePhaseLabel;
import io.leaderpacer.agent.core.PacingReport;
import io.leaderpacer.agent.core.RunRecord;
import io.leaderpacer.agent.core.SlowRead;
import io.leaderpacer.engine.BrokerGateReport;
import io.leaderpacer.engine.ElectionDecision;
import io.leaderpacer.engine.pacing.BrokerPacing;
import io.leaderpacer.engine.pacing.PacingPhase;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The JSON document of {@code /status}: the agent's state, the policy in force, the gate report per broker from
 * the last successful run (counts, ratio, phase, reason, since when) and a summary of recent runs.
 *
 * <p>Why records: Jackson renders them field by field, so the document's shape is visible here in one place and
 * cannot pick up anything (such as a client property) by accident.
 *
 * @param state                the agent's lifecycle state (STANDBY or ACTIVE when several instances coordinate)
 * @param instance             this instance's place in its group, or null for a single agent
 * @param cluster              the bootstrap servers
 * @param startupProblem       why the agent has not made contact yet, or null
 * @param configurationProblem why the previous configuration is still in force, or null
 * @param policy               the policy of the last run (all keys)
 * @param client               the client properties, secrets redacted
 * @param brokers              the gate report of the last successful run
 * @param runs                 recent runs, newest first
 * @param pacing               catch-up pacing's last look, or null before the first
 * @param slowRead             the last run's read when it took longer than the interval it serves, or null
 */
public record StatusReport(
        String state,
        Instance instance,
        String cluster,
        String startupProblem,
        String configurationProblem,
        Map<String, String> policy,
        Map<String, String> client,
        List<BrokerStatus> brokers,
        List<RunSummary> runs,
        PacingStatus pacing,
        SlowRead slowRead) {

    /** Most runs listed. */
    static final int RUNS_SHOWN = 20;

    /**
     * One broker's line of the gate report: the engine's counts as they are, the gate as an operator reads it.
     *
     * <p>Why unwrapped: the JSON stays one flat object per broker ({@code preferredPartitions}, ...,
     * {@code deferredByThrottle}), as agents and {@code pacer status} of earlier versions write and read it.
     *
     * @param partitions the broker's preferred partitions
     * @param gate       the gate's verdict and why
     * @param leaders    partitions it led when the run read the cluster
     * @param run        the elections the run granted it, held back from it and deferred
     */
    public record BrokerStatus(
            int broker,
            boolean active,
            @JsonUnwrapped BrokerGateReport.PartitionCounts partitions,
            @JsonUnwrapped GateStatus gate,
            int leaders,
            @JsonUnwrapped BrokerGateReport.RunCounts run) {

        /** The line of one broker's report in a run that saw it lead {@code leaders} partitions. */
        static BrokerStatus of(BrokerGateReport r, int leaders) {
            return new BrokerStatus(r.broker(), r.active(), r.partitions(), GateStatus.of(r), leaders, r.run());
        }
    }

    /**
     * The gate as {@code /status} shows it.
     *
     * @param outOfSyncPercent the out-of-sync ratio in percent, to two decimals
     * @param phase            the phase label ({@link GatePhaseLabel}: a broker that is down reads as inactive)
     * @param gatedSince       when the current gating episode started (ISO-8601), or null
     * @param gatedActiveMs    how long the max-wait clock has run, 0 when not gated
     */
    public record GateStatus(
            double outOfSyncPercent,
            double thresholdPercent,
            String phase,
            String reason,
            String gatedSince,
            long gatedActiveMs) {

        static GateStatus of(BrokerGateReport r) {
            BrokerGateReport.Verdict v = r.verdict();
            return new GateStatus(
                    round(r.ratio().percent()),
                    r.ratio().thresholdPercent(),
                    GatePhaseLabel.of(r),
                    v.reason(),
                    v.episodeStartMs() < 0
                            ? null
                            : Instant.ofEpochMilli(v.episodeStartMs()).toString(),
                    v.gatedActiveMs());
        }
    }

    /**
     * This instance among several (exactly one is active).
     *
     * @param role           STANDBY or ACTIVE
     * @param id             this instance's id
     * @param group          the group the instances share
     * @param since          when the current role began (ISO-8601)
     * @param takeovers      how many times this instance became active
     * @param depositions    how many times it was deposed while active
     * @param activeInstance the active instance as last seen by this one, or null when unknown
     */
    public record Instance(
            String role,
            String id,
            String group,
            String since,
            int takeovers,
            int depositions,
            String activeInstance) {}

    /**
     * Catch-up pacing's last look: per recovering broker the rate in force and why, with its catch-up's progress;
     * what pacing changed, what it left alone, and why it could not act, if it could not.
     *
     * @param at      when it looked (ISO-8601)
     * @param problem why the look failed or pacing is off, or null
     * @param quiet   whether the look read the brokers only, nothing being out of sync at the last full read (null
     *                from an agent older than this field: false)
     */
    public record PacingStatus(
            String at,
            String problem,
            List<PacedBroker> brokers,
            List<String> changes,
            List<String> notes,
            Boolean quiet,
            Boolean failed) {

        static PacingStatus of(PacingReport r) {
            return new PacingStatus(
                    Instant.ofEpochMilli(r.atMs()).toString(),
                    r.problem().orElse(null),
                    r.brokers().stream()
                            .map(b -> PacedBroker.of(b, r.quota(b.broker())))
                            .toList(),
                    r.changes(),
                    r.notes(),
                    r.quiet(),
                    r.failed());
        }

        /** Back to the agent's report, as {@code pacer status} renders it. */
        public PacingReport toReport() {
            Map<Integer, CatchUpQuota> quotas = new TreeMap<>();
            if (brokers != null) {
                brokers.forEach(b -> b.quota().ifPresent(q -> quotas.put(b.broker(), q)));
            }
            return new PacingReport(
                    Instant.parse(at).toEpochMilli(),
                    brokers == null
                            ? List.of()
                            : brokers.stream().map(PacedBroker::toPacing).toList(),
                    changes == null ? List.of() : changes,
                    notes == null ? List.of() : notes,
                    Optional.ofNullable(problem),
                    Boolean.TRUE.equals(quiet)
                            ? PacingReport.Kind.QUIET
                            : Boolean.TRUE.equals(failed) ? PacingReport.Kind.FAILED : PacingReport.Kind.FULL,
                    quotas);
        }
    }

    /**
     * One recovering broker, as catch-up pacing last decided it.
     *
     * @param rateBytesPerSecond the rate decided for its catch-up, or null when it is not throttled
     * @param setBytesPerSecond  what pacing writes for it (the rate decided plus the in-sync bytes Kafka counts on the
     *                           same quotas), or null when it sets nothing for it (down, or under someone else's rate)
     * @param inSyncBytesPerSecond of that, the in-sync bytes per second measured, or null with {@code setBytesPerSecond}
     */
    public record PacedBroker(
            int broker,
            String phase,
            Long rateBytesPerSecond,
            String reason,
            PacedProgress progress,
            Long setBytesPerSecond,
            Long inSyncBytesPerSecond) {

        static PacedBroker of(BrokerPacing b, Optional<CatchUpQuota> quota) {
            BrokerPacing.Progress p = b.progress();
            return new PacedBroker(
                    b.broker(),
                    b.phase().name(),
                    b.rateBytes().isPresent() ? b.rateBytes().getAsLong() : null,
                    b.reason(),
                    new PacedProgress(
                            box(p.bytesBehind()),
                            box(p.peakBytesBehind()),
                            box(p.catchUpBytesPerSecond()),
                            box(p.etaMs()),
                            box(p.fetchedBytesPerSecond())),
                    quota.map(CatchUpQuota::setBytes).orElse(null),
                    quota.map(CatchUpQuota::chargedBytes).orElse(null));
        }

        Optional<CatchUpQuota> quota() {
            if (setBytesPerSecond == null || rateBytesPerSecond == null) {
                return Optional.empty();
            }
            return Optional.of(new CatchUpQuota(
                    rateBytesPerSecond, setBytesPerSecond, inSyncBytesPerSecond == null ? 0 : inSyncBytesPerSecond));
        }

        BrokerPacing toPacing() {
            PacedProgress p = progress == null ? new PacedProgress(null, null, null, null, null) : progress;
            return new BrokerPacing(
                    broker,
                    PacingPhase.valueOf(phase),
                    opt(rateBytesPerSecond),
                    reason,
                    new BrokerPacing.Progress(
                            opt(p.bytesBehind()),
                            opt(p.peakBytesBehind()),
                            opt(p.catchUpBytesPerSecond()),
                            opt(p.etaMs()),
                            opt(p.fetchedBytesPerSecond())));
        }

        private static Long box(OptionalLong v) {
            return v.isPresent() ? v.getAsLong() : null;
        }

        private static Double box(OptionalDouble v) {
            return v.isPresent() ? v.getAsDouble() : null;
        }

        private static OptionalLong opt(Long v) {
            return v == null ? OptionalLong.empty() : OptionalLong.of(v);
        }

        private static OptionalDouble opt(Double v) {
            return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
        }
    }

    /** How a recovering broker's catch-up goes: bytes behind now and at most, its rate, and when it should end. */
    public record PacedProgress(
            Long bytesBehind,
            Long peakBytesBehind,
            Double catchUpBytesPerSecond,
            Long etaMs,
            Double fetchedBytesPerSecond) {}

    /** One run, summarised. */
    public record RunSummary(
            long sequence,
            String startedAt,
            long durationMs,
            boolean succeeded,
            String failure,
            int partitions,
            int imbalanced,
            int electionsDecided,
            Map<String, Long> outcomes,
            int skippedByGate,
            int deferredByThrottle,
            int gatedBrokers,
            long nextRunDelayMs) {}

    /** The report for the agent as it is now. */
    public static StatusReport of(PacerAgent agent, Map<String, String> redactedClientProperties) {
        List<RunRecord> history = agent.history();
        RunRecord lastGood = null;
        for (int i = history.size() - 1; i >= 0; i--) {
            if (history.get(i).succeeded()) {
                lastGood = history.get(i);
                break;
            }
        }
        List<BrokerStatus> brokers = new ArrayList<>();
        Map<String, String> policy = Map.of();
        if (lastGood != null) {
            ElectionDecision d = lastGood.decision().orElseThrow();
            for (BrokerGateReport r : d.brokers()) {
                brokers.add(BrokerStatus.of(r, lastGood.leaderCount(r.broker())));
            }
        }
        if (!history.isEmpty()) {
            policy = history.get(history.size() - 1).config().toMap();
        }
        List<RunSummary> runs = new ArrayList<>();
        for (int i = history.size() - 1; i >= 0 && runs.size() < RUNS_SHOWN; i--) {
            runs.add(summary(history.get(i)));
        }
        Instance instance = agent.coordination()
                .map(c -> new Instance(
                        c.role().name(),
                        c.instance(),
                        c.group(),
                        Instant.ofEpochMilli(c.sinceMs()).toString(),
                        c.takeovers(),
                        c.depositions(),
                        c.activeInstance()))
                .orElse(null);
        return new StatusReport(
                agent.state().name(),
                instance,
                agent.clusterLabel(),
                agent.startupProblem().orElse(null),
                agent.configurationProblem().orElse(null),
                policy,
                redactedClientProperties,
                brokers,
                runs,
                agent.lastPacing().map(PacingStatus::of).orElse(null),
                history.isEmpty()
                        ? null
                        : SlowRead.of(history.get(history.size() - 1)).orElse(null));
    }

    private static RunSummary summary(RunRecord run) {
        Map<String, Long> outcomes = new LinkedHashMap<>();
        for (ElectionResult r : run.results()) {
            outcomes.merge(r.outcome().name().toLowerCase(Locale.ROOT), 1L, Long::sum);
        }
        ElectionDecision d = run.decision().orElse(null);
        return new RunSummary(
                run.sequence(),
                Instant.ofEpochMilli(run.startedAtMs()).toString(),
                run.durationMs(),
                run.succeeded(),
                run.failure().orElse(null),
                run.partitionCount(),
                d == null ? 0 : d.imbalancedCount(),
                d == null ? 0 : d.elections().size(),
                outcomes,
                d == null ? 0 : d.skippedByGate(),
                d == null ? 0 : d.deferredByThrottle(),
                d == null ? 0 : d.gatedBrokerCount(),
                run.nextRunDelayMs());
    }

    private static double round(double percent) {
        return Math.round(percent * 100.0) / 100.0;
    }
}
