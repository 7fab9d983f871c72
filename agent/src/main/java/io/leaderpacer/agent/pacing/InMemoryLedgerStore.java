package io.leaderpacer.agent.pacing;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/** A {@link LedgerStore} in memory: for an agent without a state topic, and for tests. */
final class InMemoryLedgerStore implements LedgerStore {

    private final Map<String, String> records = new HashMap<>();

    @Override
    public synchronized Map<String, String> load() {
        return new TreeMap<>(records);
    }

    @Override
    public synchronized void write(Map<String, String> entries) {
        entries.forEach((k, v) -> {
            if (v == null) {
                records.remove(k);
            } else {
                records.put(k, v);
            }
        });
    }
}
