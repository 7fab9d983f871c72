package io.leaderpacer.simulator.calibrate;

import io.leaderpacer.simulator.scenario.ModelKey;
import io.leaderpacer.simulator.scenario.ModelParameters;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The parameters {@code --calibrate} fits, and which measured effect identifies each. Everything else keeps its
 * Kafka default (replica.lag.time.max.ms, fetch sizes, fetcher threads, session time-out) or is measured directly.
 */
public final class FreeParameters {

    private FreeParameters() {}

    /**
     * The quantities the objective uses: everything both sides report except the diagnostics (the split by role),
     * the steady P99 included. Without it the fit reaches the ratios with a steady P99 of a few ms (the ratio's
     * denominator) and window P99s far below the measured seconds.
     */
    public static final List<Quantity> FITTED =
            Arrays.stream(Quantity.values()).filter(q -> !q.diagnostic()).toList();

    /**
     * The standard parameters with the search starting at the given model's values (clamped to the bounds): a refit
     * from an earlier calibration, which a search from the standard start may not find again within its budget; with
     * {@link #PACED_ONLY} when the runs paced the catch-up. A value the search on logarithms cannot start from (0: the
     * earlier calibration predates the parameter) starts where a fresh search would.
     */
    public static List<FitParameter> startingFrom(ModelParameters model, boolean paced) {
        return forRuns(paced).stream()
                .map(p -> {
                    double value = model.get(p.key());
                    double start = value > 0 ? p.clamp(value) : p.start();
                    return new FitParameter(p.key(), p.min(), p.max(), start, p.why());
                })
                .toList();
    }

    /**
     * The parameters at exactly the given model's values, unclamped: a model compared with runs without a fit
     * ({@code --max-evaluations 0}) is the model as written, a parameter its file predates at its default (0 for
     * {@code catchUpBaseCores}, which {@link #startingFrom} would start a search at 0.1).
     */
    public static List<FitParameter> asGiven(ModelParameters model, boolean paced) {
        return forRuns(paced).stream()
                .map(p -> new FitParameter(p.key(), p.min(), p.max(), model.get(p.key()), p.why()))
                .toList();
    }

    /**
     * Identified only by runs that paced the catch-up: no unpaced run binds a throttle or catches up slowly enough
     * for a CPU cost apart from bytes to show, so there they would drift without effect. The wait of an in-sync write
     * behind a throttled catch-up response, and the restarted broker's CPU cost of a catch-up whatever its rate.
     */
    public static final List<FitParameter> PACED_ONLY = List.of(
            new FitParameter(
                    ModelKey.THROTTLED_FETCH_WAIT_SCALE,
                    0.05,
                    200,
                    1,
                    "the in-sync follower's wait behind a throttled catch-up response: P99 ratios under the paced policies"),
            new FitParameter(
                    ModelKey.CATCH_UP_BASE_CORES,
                    0.005,
                    2,
                    0.1,
                    "the restarted broker's CPU under a throttled catch-up: CPU in catch-up under the paced policies"));

    /** The standard parameters, and {@link #PACED_ONLY} when any measured policy paced the catch-up. */
    public static List<FitParameter> forRuns(boolean paced) {
        List<FitParameter> out = new ArrayList<>(standard());
        if (paced) {
            out.addAll(PACED_ONLY);
        }
        return List.copyOf(out);
    }

    public static List<FitParameter> standard() {
        return List.of(
                new FitParameter(
                        ModelKey.DISK_WRITE_MBPS,
                        5,
                        5000,
                        100,
                        "catch-up speed: the re-entry timeline under kip-example-scaled (the broker leads nothing while it catches up)"),
                new FitParameter(
                        ModelKey.REQUEST_COST_KB,
                        1,
                        1e5,
                        100,
                        "leading slows catch-up: the re-entry timeline under immediate against kip-example-scaled"),
                new FitParameter(
                        ModelKey.STORM_REQUESTS_PER_MOVE,
                        1,
                        1e4,
                        60,
                        "leadership moves cost for a while, steady leading for good: the shape of the immediate timeline"),
                new FitParameter(
                        ModelKey.MOVE_RETRY_MS,
                        10,
                        5000,
                        150,
                        "what a leadership move costs its producers: the leader role's P99 under kip-example-scaled, where the "
                                + "broker leads only after it has caught up"),
                new FitParameter(
                        ModelKey.ALTER_PARTITION_MS,
                        10,
                        5000,
                        200,
                        "the first re-entries: partitions with almost no backlog"),
                new FitParameter(
                        ModelKey.FETCH_WAIT_SCALE,
                        0.05,
                        200,
                        1,
                        "the in-sync follower's wait behind catch-up fetches: P99 ratio of the other partitions"),
                new FitParameter(
                        ModelKey.LEADER_SERVICE_MS,
                        0.05,
                        200,
                        1.5,
                        "queueing on a saturated leader: protected P99 ratio under immediate"),
                new FitParameter(
                        ModelKey.LATENCY_SIGMA,
                        0.1,
                        2.5,
                        0.6,
                        "spread of request latency: steady P99 and the window P99s"),
                new FitParameter(ModelKey.REPLICATION_BASE_MS, 0.1, 200, 2, "acks=all at no load: steady P99"));
    }
}
