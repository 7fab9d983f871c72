package io.leaderpacer.engine.config;

/** How the policy prints its values, shared by reports and {@code pacer config --describe}. */
public final class PacerConfigFormat {

    private PacerConfigFormat() {}

    /** A percentage without a trailing ".0" (5, 0.5). */
    public static String percent(double value) {
        return PacerConfig.formatPercent(value);
    }
}
