package io.leaderpacer.engine.config;

/**
 * When the gate's max-wait clock runs.
 *
 * <p>The default runs it only while the broker is active, and a restart ends the episode: a fenced
 * or shut-down broker has no episode at all, and when it is back over the threshold a new one with a
 * fresh clock starts. So a 40-minute host replacement does not use up a 30-minute max-wait before the
 * broker is even back, and a broker gated for 28 minutes that restarts does not escape 2 minutes
 * after its return. The literal reading starts the clock at the first run that finds the broker over
 * the threshold, down or not, and keeps it through restarts; it is kept so the simulator can show
 * why it fails.
 */
public enum MaxWaitClock implements ConfigChoice {
    /** Episodes (and their clock) live only while the broker is active; a restart ends one (the default). */
    WHILE_ACTIVE("while-active"),
    /** Wall-clock time since the first over-threshold run, whether the broker was up or not, through restarts. */
    WALL("wall");

    private final String configValue;

    MaxWaitClock(String configValue) {
        this.configValue = configValue;
    }

    @Override
    public String configValue() {
        return configValue;
    }
}
