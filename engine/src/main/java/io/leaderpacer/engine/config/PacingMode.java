package io.leaderpacer.engine.config;

/** How catch-up pacing sets a recovering broker's replication rate. */
public enum PacingMode implements ConfigChoice {
    /** Never: no replication throttle is set (the default: Kafka's behaviour). */
    OFF("off"),
    /** At the configured rate, raised only by the stall detector. */
    STATIC("static"),
    /** From the configured rate, up while the canary is healthy, halved when it is not. */
    ADAPTIVE("adaptive");

    private final String configValue;

    PacingMode(String configValue) {
        this.configValue = configValue;
    }

    @Override
    public String configValue() {
        return configValue;
    }
}
