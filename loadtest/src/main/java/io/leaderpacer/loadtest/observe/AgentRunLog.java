package io.leaderpacer.loadtest.observe;

import io.leaderpacer.agent.core.ElectionOutcome;
import io.leaderpacer.agent.core.ElectionResult;
import io.leaderpacer.agent.core.RunListener;
import io.leaderpacer.agent.core.RunRecord;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Keeps what the agent did in each run of a round: how many leaderships it moved, how many to the restarted broker,
 * and whether the engine gated that broker.
 *
 * <p>Why a listener rather than reading the cluster: the election batches (their times and sizes) and the gate's
 * release are the agent's decisions; the cluster shows only their effect, later and blurred by sampling.
 */
public final class AgentRunLog implements RunListener {

    private final int broker;
    private final LongSupplier clockMs;
    private final List<AgentRunSample> runs = new ArrayList<>();

    public AgentRunLog(int broker, LongSupplier clockMs) {
        this.broker = broker;
        this.clockMs = clockMs;
    }

    @Override
    public synchronized void onRun(RunRecord run) {
        int elected = 0;
        int toBroker = 0;
        for (ElectionResult r : run.results()) {
            if (r.outcome() == ElectionOutcome.ELECTED) {
                elected++;
                toBroker += r.targetLeader() == broker ? 1 : 0;
            }
        }
        boolean gated = run.decision().map(d -> d.isGated(broker)).orElse(false);
        runs.add(new AgentRunSample(clockMs.getAsLong(), elected, toBroker, gated, !run.succeeded()));
    }

    public synchronized List<AgentRunSample> runs() {
        return List.copyOf(runs);
    }
}
