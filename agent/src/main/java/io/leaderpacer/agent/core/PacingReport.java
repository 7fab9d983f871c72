package io.leaderpacer.agent.core;

import io.leaderpacer.engine.pacing.BrokerPacing;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One look of catch-up pacing, for the log, {@code /status}, metrics and the load test.
 *
 * @param atMs    when it looked (the agent's clock)
 * @param brokers per recovering broker, the rate decided and why, and how its catch-up goes
 * @param changes what it changed in the cluster this time
 * @param notes   what it saw and left alone (someone else's rate, a list set to {@code *}, ...)
 * @param problem why the look failed or pacing is off, if it did or is
 * @param kind    how the look went
 * @param quotas  per paced broker that is up, what pacing sets for its catch-up beside the rate decided
 */
public record PacingReport(
        long atMs,
        List<BrokerPacing> brokers,
        List<String> changes,
        List<String> notes,
        Optional<String> problem,
        Kind kind,
        Map<Integer, CatchUpQuota> quotas) {

    /** How a look went. */
    public enum Kind {
        /** It read the whole cluster (or nothing, pacing being off) and did what it decided. */
        FULL,
        /**
         * It read the brokers only: its last full read found nothing to pace and no broker has changed since (see
         * {@code QuietLooks}).
         */
        QUIET,
        /**
         * It failed, or Kafka did not confirm some of its changes: what pacing set stays as it was, and the next look
         * tries again. Counted by the metrics; the problem says why.
         */
        FAILED
    }

    public PacingReport {
        brokers = List.copyOf(brokers);
        changes = List.copyOf(changes);
        notes = List.copyOf(notes);
        Objects.requireNonNull(kind, "kind");
        quotas = Map.copyOf(quotas);
    }

    /** A look with no quota set (pacing off, quiet, failed, or restoring). */
    public PacingReport(
            long atMs,
            List<BrokerPacing> brokers,
            List<String> changes,
            List<String> notes,
            Optional<String> problem,
            Kind kind) {
        this(atMs, brokers, changes, notes, problem, kind, Map.of());
    }

    /** What pacing sets for {@code broker}'s catch-up, if it is paced and up. */
    public Optional<CatchUpQuota> quota(int broker) {
        return Optional.ofNullable(quotas.get(broker));
    }

    /** A look that read the whole cluster (or read nothing, pacing being off). */
    public PacingReport(
            long atMs, List<BrokerPacing> brokers, List<String> changes, List<String> notes, Optional<String> problem) {
        this(atMs, brokers, changes, notes, problem, Kind.FULL);
    }

    /** Whether the look read the brokers only. */
    public boolean quiet() {
        return kind == Kind.QUIET;
    }

    /** Whether the look failed or left a change unconfirmed. */
    public boolean failed() {
        return kind == Kind.FAILED;
    }

    /** A quiet look: nothing to pace, nothing changed; the canary's problem, if it has one. */
    public static PacingReport quiet(long atMs, Optional<String> canaryProblem) {
        return new PacingReport(atMs, List.of(), List.of(), List.of(), canaryProblem, Kind.QUIET);
    }

    public static PacingReport failed(long atMs, String problem) {
        return new PacingReport(atMs, List.of(), List.of(), List.of(), Optional.of(problem), Kind.FAILED);
    }
}
