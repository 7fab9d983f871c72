package io.leaderpacer.loadtest;

/**
 * A load test setting out of its range, named as the settings name it ({@code loadPartitions}), not as a command
 * line writes it: the command line maps the setting to its option (see {@code LoadTestCommand}).
 */
public final class SettingException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String setting;

    /** @param message the whole message, starting with the setting's name */
    SettingException(String setting, String message) {
        super(message);
        this.setting = setting;
    }

    /** The setting's name, as {@link LoadTestSettings} names it. */
    public String setting() {
        return setting;
    }

    static void require(boolean ok, String setting, String rest) {
        if (!ok) {
            throw new SettingException(setting, setting + " " + rest);
        }
    }
}
