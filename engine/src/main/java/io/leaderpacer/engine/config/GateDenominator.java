package io.leaderpacer.engine.config;

/**
 * Which partitions count in the gate's out-of-sync ratio for a broker.
 *
 * <p>KIP-1358's worked example ("250 = 5% of 5,000 preferred partitions") fixes the denominator
 * as all of the broker's preferred partitions: that is the default. Its pseudo-code ("entries of
 * imbalancedPartitions") reads literally as only the partitions the broker does not lead yet; that
 * denominator shrinks as leadership returns and can re-gate a broker half-way through its ramp.
 * The literal reading is kept so the simulator can show the difference.
 */
public enum GateDenominator implements ConfigChoice {
    /** All partitions whose effective preferred replica is the broker (the default). */
    ALL_PREFERRED("all-preferred"),
    /** Only those of them that are imbalanced (the literal reading of KIP-1358's pseudo-code). */
    IMBALANCED_ONLY("imbalanced-only");

    private final String configValue;

    GateDenominator(String configValue) {
        this.configValue = configValue;
    }

    @Override
    public String configValue() {
        return configValue;
    }
}
