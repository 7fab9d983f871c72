package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.throttle.BrokerScope;
import io.leaderpacer.agent.throttle.ThrottleConfigs;
import io.leaderpacer.agent.throttle.ThrottleOp;
import io.leaderpacer.agent.throttle.ThrottleReading;
import io.leaderpacer.agent.throttle.ThrottleSettings;
import io.leaderpacer.agent.throttle.ThrottleSide;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.PolicyViolationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeoutException;

/**
 * Kafka's dynamic config semantics for the replication throttle keys, in memory, with faults a real cluster cannot be
 * made to produce on cue: a request refused, one that lands and is never confirmed, the process killed right before
 * or right after a request. For properties of the reconciler over thousands of random sequences; the cluster tests
 * run the same code against real Kafka.
 *
 * <p>What it models, as KRaft's {@code ConfigurationControlManager} does: {@code SET} and {@code DELETE};
 * {@code APPEND} and {@code SUBTRACT} on a list split at commas as written (an operator's spaces are kept), a
 * {@code SUBTRACT} of every entry leaving an empty value, an {@code APPEND} to {@code *} refused; a per-broker value
 * read from that broker only (a broker that is down does not answer), its default read from any; a deleted topic
 * unknown; a request of more than the controller's 10,000 records refused whole.
 */
final class KafkaConfigModel implements ThrottleConfigs {

    /** What happens to the next request. */
    enum Fault {
        /** It lands and is confirmed. */
        NONE,
        /** Refused: nothing lands. */
        REFUSED,
        /** It lands, and the answer times out. */
        UNCONFIRMED,
        /** The process dies after its ledger write, before the request is sent. */
        CRASH_BEFORE,
        /** The process dies after the request landed, before its answer is handled. */
        CRASH_AFTER,
        /** The answer times out, and the request lands later: right before the next request. */
        LATE
    }

    /** The process died (thrown through the reconciler, as a {@code kill -9} ends it). */
    static final class Crash extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Crash() {
            super("killed", null, false, false);
        }
    }

    private final Map<ConfigResource, Map<String, String>> values = new LinkedHashMap<>();
    private final Set<String> deleted = new HashSet<>();
    /** Topics the broker answering does not know yet (it lags their creation): unknown, but their values kept. */
    private final Set<String> hidden = new HashSet<>();

    private Set<Integer> up = Set.of(0, 1, 2);
    private final Deque<Fault> faults = new ArrayDeque<>();
    private int largestRequest;
    private int requests;
    /** Runs before the next request is applied: someone else's change in between a look's read and its write. */
    private Runnable beforeNext = () -> {};
    /** Every operation sent, in order. */
    private final List<ThrottleOp> sent = new ArrayList<>();
    /** A request that timed out and lands right before the next one. */
    private List<ThrottleOp> late = List.of();
    /**
     * The values as they were at the first request since the last read (null: no request since), served by the next
     * read when it is to be stale.
     */
    private Map<ConfigResource, Map<String, String>> beforeLast;

    /** How many of the next reads answer from {@link #beforeLast}. */
    private int staleReads;

    private int reads;

    /** Sets a value directly, as someone else would. */
    void put(ConfigResource resource, String key, String value) {
        values.computeIfAbsent(resource, r -> new TreeMap<>()).put(key, value);
    }

    /** Every dynamic value now, by resource (empty resources left out). */
    Map<ConfigResource, Map<String, String>> values() {
        Map<ConfigResource, Map<String, String>> out = new LinkedHashMap<>();
        values.forEach((r, m) -> {
            if (!m.isEmpty()) {
                out.put(r, new TreeMap<>(m));
            }
        });
        return out;
    }

    void deleteTopic(String topic) {
        deleted.add(topic);
        values.remove(topic(topic));
    }

    /** From now on the broker answering says the topic does not exist, as one that lags its creation would. */
    void hideTopic(String topic) {
        hidden.add(topic);
    }

    /** The broker answering has caught up with the topic's creation. */
    void showTopic(String topic) {
        hidden.remove(topic);
    }

    void up(Set<Integer> brokers) {
        up = Set.copyOf(brokers);
    }

    /** The faults of the next requests, in order; a request with none queued lands. */
    void fault(Fault f) {
        faults.add(f);
    }

    /** The next read answers from metadata that has not caught up with the last request yet. */
    void staleNextRead() {
        staleNextReads(1);
    }

    /** The next {@code n} reads answer from metadata that has not caught up with the last request yet. */
    void staleNextReads(int n) {
        staleReads = n;
    }

    /** How many reads were answered. */
    int reads() {
        return reads;
    }

    /** Someone else's change, made right before the next request lands. */
    void beforeNextRequest(Runnable change) {
        beforeNext = change;
    }

    List<ThrottleOp> sent() {
        return List.copyOf(sent);
    }

    /** Drops the faults no request reached. */
    void clearFaults() {
        faults.clear();
    }

    int largestRequest() {
        return largestRequest;
    }

    int requests() {
        return requests;
    }

    @Override
    public ThrottleReading describeEach(Collection<BrokerScope> scopes, Collection<String> topics, int batch) {
        // A read lags only what changed since the read before it: metadata does not go back in time.
        reads++;
        Map<ConfigResource, Map<String, String>> values =
                staleReads > 0 && beforeLast != null ? beforeLast : this.values;
        staleReads = Math.max(0, staleReads - 1);
        if (staleReads == 0) {
            beforeLast = null;
        }
        Map<ConfigResource, Config> configs = new LinkedHashMap<>();
        Map<ConfigResource, Throwable> failed = new LinkedHashMap<>();
        Map<String, String> defaults =
                values.getOrDefault(BrokerScope.clusterDefault().resource(), Map.of());
        for (BrokerScope s : scopes) {
            if (!s.isClusterDefault() && !up.contains(Integer.parseInt(s.brokerId()))) {
                failed.put(s.resource(), new TimeoutException("broker " + s.brokerId() + " did not answer"));
                continue;
            }
            List<ConfigEntry> entries = new ArrayList<>();
            for (ThrottleSide side : ThrottleSide.values()) {
                String own = values.getOrDefault(s.resource(), Map.of()).get(side.rateKey());
                if (own != null) {
                    entries.add(entry(
                            side.rateKey(),
                            own,
                            s.isClusterDefault()
                                    ? ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG
                                    : ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG));
                } else if (defaults.containsKey(side.rateKey())) {
                    entries.add(entry(
                            side.rateKey(),
                            defaults.get(side.rateKey()),
                            ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG));
                }
            }
            configs.put(s.resource(), new Config(entries));
        }
        for (String t : topics) {
            if (deleted.contains(t) || hidden.contains(t)) {
                failed.put(topic(t), new UnknownTopicOrPartitionException("the topic " + t + " does not exist"));
                continue;
            }
            List<ConfigEntry> entries = new ArrayList<>();
            values.getOrDefault(topic(t), Map.of())
                    .forEach((k, v) -> entries.add(entry(k, v, ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG)));
            configs.put(topic(t), new Config(entries));
        }
        return new ThrottleReading(new ThrottleSettings(configs), failed);
    }

    @Override
    public Map<ConfigResource, Optional<Throwable>> applyEach(List<ThrottleOp> ops) {
        requests++;
        largestRequest = Math.max(largestRequest, ops.size());
        Runnable meanwhile = beforeNext;
        beforeNext = () -> {};
        meanwhile.run();
        late.forEach(this::apply);
        late = List.of();
        if (beforeLast == null) {
            Map<ConfigResource, Map<String, String>> copy = new LinkedHashMap<>();
            values.forEach((r, m) -> copy.put(r, new TreeMap<>(m)));
            beforeLast = copy;
        }
        sent.addAll(ops);
        Fault f = faults.isEmpty() ? Fault.NONE : faults.poll();
        if (f == Fault.CRASH_BEFORE) {
            throw new Crash();
        }
        Map<ConfigResource, Optional<Throwable>> out = new LinkedHashMap<>();
        if (ops.size() > ThrottleReconciler.Limits.KAFKA_MAX_RECORDS_PER_REQUEST) {
            ops.forEach(o -> out.put(o.resource(), Optional.of(new PolicyViolationException("too many records"))));
            return out;
        }
        if (f == Fault.LATE) {
            late = List.copyOf(ops);
            ops.forEach(o -> out.put(o.resource(), Optional.of(new TimeoutException("no answer in time"))));
            return out;
        }
        for (ThrottleOp op : ops) {
            if (out.containsKey(op.resource()) && !sameResourceOtherKey(ops, op)) {
                throw new AssertionError("a resource twice in one request: " + op.resource());
            }
            if (f == Fault.REFUSED) {
                out.put(op.resource(), Optional.of(new PolicyViolationException("refused by a policy")));
                continue;
            }
            out.put(op.resource(), apply(op));
        }
        if (f == Fault.CRASH_AFTER) {
            throw new Crash();
        }
        if (f == Fault.UNCONFIRMED) {
            out.replaceAll((r, o) -> o.isPresent() ? o : Optional.of(new TimeoutException("no answer in time")));
        }
        return out;
    }

    /** Whether another operation of the request changes another key of the same resource (Kafka takes that). */
    private static boolean sameResourceOtherKey(List<ThrottleOp> ops, ThrottleOp op) {
        return ops.stream()
                        .filter(o -> o.resource().equals(op.resource()))
                        .map(ThrottleOp::key)
                        .distinct()
                        .count()
                == ops.stream().filter(o -> o.resource().equals(op.resource())).count();
    }

    private Optional<Throwable> apply(ThrottleOp op) {
        ConfigResource r = op.resource();
        if (r.type() == ConfigResource.Type.TOPIC && (deleted.contains(r.name()) || hidden.contains(r.name()))) {
            return Optional.of(new UnknownTopicOrPartitionException("the topic " + r.name() + " does not exist"));
        }
        if (r.type() == ConfigResource.Type.BROKER && !r.name().isEmpty() && !up.contains(Integer.parseInt(r.name()))) {
            return Optional.of(new TimeoutException("broker " + r.name() + " did not answer"));
        }
        Map<String, String> m = values.computeIfAbsent(r, x -> new TreeMap<>());
        String key = op.key();
        String value = op.op().configEntry().value();
        switch (op.op().opType()) {
            case SET -> m.put(key, value);
            case DELETE -> m.remove(key);
            case APPEND -> {
                String old = m.get(key);
                if ("*".equals(old == null ? null : old.trim())) {
                    return Optional.of(new InvalidRequestException("cannot append to *"));
                }
                List<String> parts = old == null || old.isEmpty()
                        ? new ArrayList<>()
                        : new ArrayList<>(Arrays.asList(old.split(",")));
                for (String v : value.split(",")) {
                    if (!parts.contains(v)) {
                        parts.add(v);
                    }
                }
                m.put(key, String.join(",", parts));
            }
            case SUBTRACT -> {
                String old = m.get(key);
                List<String> parts = old == null || old.isEmpty()
                        ? new ArrayList<>()
                        : new ArrayList<>(Arrays.asList(old.split(",")));
                parts.removeAll(Arrays.asList(value.split(",")));
                m.put(key, String.join(",", parts));
            }
            default -> throw new AssertionError(op.op().opType());
        }
        return Optional.empty();
    }

    private static ConfigEntry entry(String key, String value, ConfigEntry.ConfigSource source) {
        return new ConfigEntry(key, value, source, false, false, List.of(), ConfigEntry.ConfigType.UNKNOWN, null);
    }

    static ConfigResource topic(String topic) {
        return new ConfigResource(ConfigResource.Type.TOPIC, topic);
    }

    /** An operation's type, for assertions. */
    static AlterConfigOp.OpType type(ThrottleOp op) {
        return op.op().opType();
    }
}
