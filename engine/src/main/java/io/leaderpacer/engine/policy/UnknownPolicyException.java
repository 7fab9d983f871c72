package io.leaderpacer.engine.policy;

import io.leaderpacer.engine.config.ConfigException;

import java.util.List;
import java.util.Optional;

/**
 * A policy name nobody defined. The message names it, lists the known names and, for a name retired when the
 * policies got one registry, says which one replaced it; every name is quoted printable (it may come from a file).
 */
public final class UnknownPolicyException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String name;
    private final List<String> known;

    UnknownPolicyException(String name, List<String> known, Optional<String> replacedBy) {
        super("unknown policy '" + ConfigException.printable(name) + "'; known policies are "
                + String.join(
                        ", ", known.stream().map(ConfigException::printable).toList())
                + replacedBy.map(r -> " (" + r + ")").orElse(""));
        this.name = name;
        this.known = List.copyOf(known);
    }

    /** The name as given. */
    public String name() {
        return name;
    }

    /** The names that would have been accepted. */
    public List<String> known() {
        return known;
    }
}
