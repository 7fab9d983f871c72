package io.leaderpacer.loadtest.observe;

import io.leaderpacer.agent.core.PacingReport;
import io.leaderpacer.engine.pacing.BrokerPacing;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Keeps what catch-up pacing decided for the restarted broker at each look of a round: the rate, why, and the bytes
 * behind the agent saw, and what the look changed in the throttles. A look that did not pace it (in sync, or pacing
 * off) is kept as unthrottled.
 */
public final class PacingLog implements Consumer<PacingReport> {

    private final int broker;
    private final LongSupplier clockMs;
    private final List<PacingSample> samples = new ArrayList<>();

    public PacingLog(int broker, LongSupplier clockMs) {
        this.broker = broker;
        this.clockMs = clockMs;
    }

    @Override
    public synchronized void accept(PacingReport report) {
        BrokerPacing b = report.brokers().stream()
                .filter(x -> x.broker() == broker)
                .findFirst()
                .orElse(null);
        samples.add(new PacingSample(
                clockMs.getAsLong(),
                b == null || b.rateBytes().isEmpty() ? -1 : b.rateBytes().getAsLong(),
                b == null || b.progress().bytesBehind().isEmpty()
                        ? -1
                        : b.progress().bytesBehind().getAsLong(),
                b == null ? "not paced" : b.reason(),
                report.problem().orElse(""),
                String.join("; ", report.changes())));
    }

    public synchronized List<PacingSample> samples() {
        return List.copyOf(samples);
    }
}
