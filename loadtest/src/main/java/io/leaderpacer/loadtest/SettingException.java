package io.leaderpacer.loadtest;

import io.leaderpacer.loadtest.LoadTestDefaults.Setting;

/**
 * A load test setting out of its range. Its message names the setting as the settings name it
 * ({@code loadPartitions must be at least 1, got 0}); the setting also knows its option ({@link #option()}), so that a
 * command line says {@code --partitions} without a map from one name back to the other.
 */
public final class SettingException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final Setting setting;
    private final String rest;

    /** @param rest what is wrong, after the setting's name: {@code must be at least 1, got 0} */
    SettingException(Setting setting, String rest) {
        super(setting.settingName() + " " + rest);
        this.setting = setting;
        this.rest = rest;
    }

    /** The setting's name, as {@link LoadTestSettings} names it. */
    public String setting() {
        return setting.settingName();
    }

    /** The option that sets it, as the user types it ({@code --partitions}). */
    public String option() {
        return setting.option();
    }

    /** What is wrong, without the setting's name. */
    public String rest() {
        return rest;
    }

    static void require(boolean ok, Setting setting, String rest) {
        if (!ok) {
            throw new SettingException(setting, rest);
        }
    }
}
