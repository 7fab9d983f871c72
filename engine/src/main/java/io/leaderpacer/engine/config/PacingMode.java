package io.leaderpacer.engine.config;

/** How catch-up pacing sets a recovering broker's replication rate. */
public enum PacingMode {
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

    public String configValue() {
        return configValue;
    }

    /** The mode for a config value, or {@code null}. */
    static PacingMode forValue(String value) {
        for (PacingMode m : values()) {
            if (m.configValue.equals(value)) {
                return m;
            }
        }
        return null;
    }
}
