package io.leaderpacer.simulator.report;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.leaderpacer.report.csv.Decimals;

/**
 * A line of {@code summary.csv}: one scenario and policy run with one seed (figures modelled, not measured; an
 * empty cell where there is no value).
 *
 * @param key        scenario, policy, seed
 * @param kip        KIP-1358's figures
 * @param controller what the controller did
 * @param checks     the verdicts and the invariant checks made
 * @param classes    the P99 ratios of the protected class, the other partitions and the worst broker
 * @param limits     the physical limit of recovery, and when the gate released the broker
 */
public record SummaryRow(
        @JsonUnwrapped SimulationKey key,
        @JsonUnwrapped Kip kip,
        @JsonUnwrapped Controller controller,
        @JsonUnwrapped Checks checks,
        @JsonUnwrapped Classes classes,
        @JsonUnwrapped Limits limits) {

    /**
     * KIP-1358's figures.
     *
     * @param steadyP99Ms   P99 before the first event (ms)
     * @param windowP99Ms   P99 over the recovery window (ms)
     * @param p99Ratio      their ratio
     * @param timeouts      requests slower than request.timeout.ms
     * @param recoveryS     recovery time (s); empty if it never recovered
     * @param recoveryRatio recovery time over the baseline's
     */
    public record Kip(
            @JsonProperty("steady_p99_ms") double steadyP99Ms,
            @JsonProperty("window_p99_ms") double windowP99Ms,
            @JsonProperty("p99_ratio") double p99Ratio,
            long timeouts,
            @JsonProperty("recovery_s") @Decimals(1) double recoveryS,
            @JsonProperty("recovery_ratio") double recoveryRatio) {}

    /**
     * The controller's activity.
     *
     * @param elections           preferred-leader elections
     * @param failoverElections   leader changes on fencing / shutdown / unfencing
     * @param runs                runs of the periodic task
     * @param maxElectionsInRun   most elections one run made
     * @param skippedByGate       elections held back by the gate, summed over runs
     * @param controllerFailovers controller failovers
     */
    public record Controller(
            long elections,
            @JsonProperty("failover_elections") long failoverElections,
            long runs,
            @JsonProperty("max_elections_in_run") int maxElectionsInRun,
            @JsonProperty("skipped_by_gate") long skippedByGate,
            @JsonProperty("controller_failovers") int controllerFailovers) {}

    /**
     * What was checked.
     *
     * @param p99Ok           KIP-1358's criterion 1
     * @param timeoutsOk      criterion 2
     * @param recoveryOk      criterion 3
     * @param verdict         PASS or FAIL
     * @param invariantChecks invariant checks made (all passed)
     */
    public record Checks(
            @JsonProperty("p99_ok") boolean p99Ok,
            @JsonProperty("timeouts_ok") boolean timeoutsOk,
            @JsonProperty("recovery_ok") boolean recoveryOk,
            String verdict,
            @JsonProperty("invariant_checks") long invariantChecks) {}

    /**
     * P99 ratios beside the cluster-wide one.
     *
     * @param protectedP99Ratio   of the partitions whose preferred leader is a restarted broker
     * @param otherP99Ratio       of every other partition
     * @param worstBroker         the leader broker with the largest ratio; empty when unknown
     * @param worstBrokerP99Ratio its ratio
     */
    public record Classes(
            @JsonProperty("protected_p99_ratio") double protectedP99Ratio,
            @JsonProperty("other_p99_ratio") double otherP99Ratio,
            @JsonProperty("worst_broker") Integer worstBroker,
            @JsonProperty("worst_broker_p99_ratio") double worstBrokerP99Ratio) {}

    /**
     * Recovery against what physics allows.
     *
     * @param physicalLimitS          the last preferred ISR re-entry (s)
     * @param recoveryVsPhysicalLimit recovery time over it
     * @param gateReleaseS            when the gate released the restarted broker (s after unfencing); empty without
     */
    public record Limits(
            @JsonProperty("physical_limit_s") @Decimals(1) double physicalLimitS,
            @JsonProperty("recovery_vs_physical_limit") double recoveryVsPhysicalLimit,
            @JsonProperty("gate_release_s") @Decimals(1) double gateReleaseS) {}
}
