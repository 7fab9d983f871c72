package io.leaderpacer.engine.config;

/**
 * When the gate's max-wait clock runs.
 *
 * <p>The default runs it only while the broker is active: a fenced or shut-down broker cannot
 * lead anyway, and a 40-minute host replacement must not use up a 30-minute max-wait before the
 * broker is even back. The literal reading starts the clock at the first run that finds the
 * broker over the threshold, down or not; it is kept so the simulator can show why it fails.
 */
public enum MaxWaitClock {
    /** The clock runs only across runs that find the broker active (the default). */
    WHILE_ACTIVE("while-active"),
    /** Wall-clock time since the first over-threshold run, whether the broker was up or not. */
    WALL("wall");

    private final String configValue;

    MaxWaitClock(String configValue) {
        this.configValue = configValue;
    }

    public String configValue() {
        return configValue;
    }

    static MaxWaitClock parseOrNull(String value) {
        for (MaxWaitClock c : values()) {
            if (c.configValue.equals(value)) {
                return c;
            }
        }
        return null;
    }
}
