package io.leaderpacer.engine.config;

/**
 * How the periodic task chooses preferred-leader elections
 * ({@code leader.imbalance.election.algorithm}).
 */
public enum ElectionAlgorithm implements ConfigChoice {
    /** Kafka's behaviour today: every valid preferred election, first come first served, up to the cap. */
    IMMEDIATE("immediate"),
    /** Gate brokers still catching up, and round-robin across the brokers that pass. */
    WAIT_FOR_SYNC("wait-for-sync");

    private final String configValue;

    ElectionAlgorithm(String configValue) {
        this.configValue = configValue;
    }

    /** The value as written in a configuration file. */
    @Override
    public String configValue() {
        return configValue;
    }
}
