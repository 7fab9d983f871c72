package io.leaderpacer.agent.dynamic;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * What one {@code pacer config --alter} wrote, so the command can say exactly that.
 *
 * @param set     keys set, with the values as stored (canonical form)
 * @param deleted keys whose override was removed (keys that were not overridden are not listed)
 */
public record ConfigChange(Map<String, String> set, Set<String> deleted) {

    public ConfigChange {
        set = Collections.unmodifiableMap(new LinkedHashMap<>(set));
        deleted = Collections.unmodifiableSet(new LinkedHashSet<>(deleted));
    }
}
