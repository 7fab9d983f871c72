package io.leaderpacer.agent.core;

import io.leaderpacer.engine.BrokerGateReport;
import io.leaderpacer.engine.GatePhase;

/**
 * The gate phase as an operator reads it, the same in {@code pacer plan}, {@code /status}, {@code pacer status}
 * and the demo: the engine's phase, except that a broker that is down shows {@value #INACTIVE}.
 *
 * <p>Why: under {@code wait-for-sync} the engine itself reports a down broker as {@code INACTIVE} (a restart ends
 * its gating episode), but under {@code immediate} it reports {@code NOT_APPLICABLE}, and "not applicable" or
 * "open" next to a broker that is down reads as "it is about to get its leaders back". One label for both.
 */
public final class GatePhaseLabel {

    /** The label of a broker that is down and not gated. */
    public static final String INACTIVE = "INACTIVE";

    private GatePhaseLabel() {}

    /** The label of a phase for a broker that is, or is not, active. */
    public static String of(GatePhase phase, boolean active) {
        if (!active && phase != GatePhase.GATED) {
            return INACTIVE;
        }
        return phase.name();
    }

    /** The label of one broker's gate report. */
    public static String of(BrokerGateReport report) {
        return of(report.verdict().phase(), report.active());
    }
}
