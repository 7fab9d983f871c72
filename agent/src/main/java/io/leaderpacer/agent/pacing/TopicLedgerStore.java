package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.core.StateTopic;
import io.leaderpacer.agent.dynamic.CompactedTopic;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * A {@link LedgerStore} in the agent's compacted state topic, under keys of its own ({@value #PREFIX}...): a
 * ':' never occurs in a topic name, so they cannot collide with the KIP-491 order records kept there. Writes go
 * through the topic's writer (the active instance's fenced producer), so a deposed instance cannot write.
 */
public final class TopicLedgerStore implements LedgerStore {

    /** The prefix of every ledger key in the state topic. */
    public static final String PREFIX = StateTopic.LEDGER_KEY_PREFIX;

    private final CompactedTopic topic;

    public TopicLedgerStore(CompactedTopic topic) {
        this.topic = topic;
    }

    @Override
    public Map<String, String> load() throws InterruptedException, TimeoutException {
        Map<String, String> out = new LinkedHashMap<>();
        topic.read().forEach((k, v) -> {
            if (k.startsWith(PREFIX)) {
                out.put(k.substring(PREFIX.length()), v);
            }
        });
        return out;
    }

    @Override
    public void write(Map<String, String> entries) throws InterruptedException, ExecutionException, TimeoutException {
        Map<String, String> prefixed = new LinkedHashMap<>();
        entries.forEach((k, v) -> prefixed.put(PREFIX + k, v));
        topic.write(prefixed);
    }
}
