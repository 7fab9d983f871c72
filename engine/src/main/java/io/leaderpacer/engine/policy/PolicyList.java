package io.leaderpacer.engine.policy;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Named policies in the order listings show them, looked up by name with the error an operator reads for a name that
 * is none of them.
 *
 * <p>Why a class: the production registry ({@link PolicyRegistry}) and the load test's (which adds its sized policies
 * to it) look names up and refuse unknown ones the same way; one class, so that they cannot drift apart.
 */
public final class PolicyList {

    private final Map<String, PolicyEntry> byName;

    /** @param entries the policies, each under its own name, in listing order */
    public PolicyList(Collection<PolicyEntry> entries) {
        Map<String, PolicyEntry> m = new LinkedHashMap<>();
        for (PolicyEntry e : entries) {
            if (m.putIfAbsent(e.name(), e) != null) {
                throw new IllegalArgumentException("two policies are named " + e.name());
            }
        }
        this.byName = Collections.unmodifiableMap(m);
    }

    /** The policy with this name, if there is one. */
    public Optional<PolicyEntry> find(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /**
     * The policy with this name.
     *
     * @throws UnknownPolicyException listing the known names (and, for a retired name, the one that replaced it)
     */
    public PolicyEntry named(String name) {
        PolicyEntry e = byName.get(name);
        if (e == null) {
            throw unknown(name, List.of());
        }
        return e;
    }

    /** Every policy, in listing order. */
    public List<PolicyEntry> all() {
        return new ArrayList<>(byName.values());
    }

    /** Every policy's name, in listing order. */
    public List<String> names() {
        return new ArrayList<>(byName.keySet());
    }

    /**
     * The error for a name that is neither one of these policies nor one of {@code customNames} (a scenario's own
     * policies): it lists these names, then the custom ones, and says which name replaced a retired one.
     */
    public UnknownPolicyException unknown(String name, Collection<String> customNames) {
        List<String> known = names();
        for (String c : customNames) {
            if (!known.contains(c)) {
                known.add(c);
            }
        }
        return new UnknownPolicyException(name, known, LegacyPolicyNames.replacement(name));
    }
}
