package io.leaderpacer.agent.dynamic;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * Makes sure the agent's state topic keeps what is written to it: creates it with safe settings when absent, and
 * refuses an existing one whose settings could lose or stall the agent's records.
 *
 * <p>Why: the state topic holds the only copy of every replica order the agent changed for the deprioritized list.
 * A topic with {@code cleanup.policy=delete} silently loses those originals after {@code retention.ms}; a single
 * replica or {@code min.insync.replicas=1} loses an acknowledged write with one disk; an unclean leader election
 * can truncate it; and the agent's one-active-instance coordination and its write order rely on a single
 * partition. Auto-created topics and topics created by hand get none of this right by default, so the agent
 * checks before its first write and names every problem with the command that fixes it.
 *
 * <p>The rules, with {@code brokers} the registered broker count (fenced ones included: a broker down for a restart
 * still counts, see {@link #registeredBrokers}) and {@code RF = min(3, brokers)}:
 * <ul>
 *   <li>exactly 1 partition;</li>
 *   <li>replication factor at least {@code RF};</li>
 *   <li>{@code cleanup.policy} includes {@code compact}; with {@code compact,delete} both {@code retention.ms} and
 *       {@code retention.bytes} must be -1 (else delete removes old records, compacted or not);</li>
 *   <li>{@code min.insync.replicas} at least {@code min(2, replication factor)} and at most the replication factor
 *       (above it every write fails); judged against the replication factor the topic will have once fixed;</li>
 *   <li>{@code unclean.leader.election.enable} not {@code true} for the topic (its own or the brokers' default).</li>
 * </ul>
 * The producer side (acks=all, idempotent) is enforced by {@link CompactedTopic} itself, whatever the client
 * properties say.
 */
public final class StateTopicSafety {

    private static final Logger LOG = LoggerFactory.getLogger(StateTopicSafety.class);

    /** Replicas wanted, capped by the broker count: three survive one broker loss with a second copy in sync. */
    static final int WANTED_REPLICAS = 3;
    /** In-sync copies wanted per acknowledged write, capped by the replication factor. */
    static final int WANTED_MIN_INSYNC = 2;
    /** Pause between two describes while a just-created topic becomes visible. */
    private static final long DESCRIBE_RETRY_MS = 100;

    private StateTopicSafety() {}

    /**
     * Creates the topic with safe settings if it does not exist; otherwise checks it.
     *
     * @param admin   the agent's Admin client (not closed)
     * @param topic   the state topic's name
     * @param timeout bound on each Admin call
     * @throws UnsafeTopicException when the topic exists with unsafe settings; nothing is changed or written
     */
    public static void ensureSafe(Admin admin, String topic, Duration timeout)
            throws UnsafeTopicException, InterruptedException, ExecutionException, TimeoutException {
        ensureSafe(admin, topic, timeout, Time.SYSTEM);
    }

    /**
     * As {@link #ensureSafe(Admin, String, Duration)}, its waits for a topic another client just created measured
     * and slept on {@code time}, so that a test can step them.
     */
    public static void ensureSafe(Admin admin, String topic, Duration timeout, Time time)
            throws UnsafeTopicException, InterruptedException, ExecutionException, TimeoutException {
        long ms = timeout.toMillis();
        Collection<Node> nodes = registeredBrokers(admin, ms);
        Optional<TopicDescription> existing = describe(admin, topic, ms);
        if (existing.isEmpty()) {
            if (create(admin, topic, nodes.size(), ms)) {
                return;
            }
            existing = awaitDescription(admin, topic, time.timer(timeout), time);
        }
        Config config = awaitConfigs(admin, topic, time.timer(timeout), time);
        Map<String, String> configs = new HashMap<>();
        if (config != null) {
            for (ConfigEntry e : config.entries()) {
                if (e.value() != null) {
                    configs.put(e.name(), e.value());
                }
            }
        }
        Map<Integer, List<Integer>> replicas = new TreeMap<>();
        for (TopicPartitionInfo p : existing.orElseThrow().partitions()) {
            replicas.put(p.partition(), p.replicas().stream().map(Node::id).toList());
        }
        String bootstrap = nodes.stream()
                .min(Comparator.comparingInt(Node::id))
                .map(n -> n.host() + ":" + n.port())
                .orElse("<host:port>");
        List<TopicSafetyProblem> problems = problems(new StateTopicDescription(
                topic, replicas, configs, nodes.stream().map(Node::id).toList(), bootstrap));
        if (!problems.isEmpty()) {
            throw new UnsafeTopicException(topic, problems);
        }
        LOG.debug(
                "State topic {} is safe: {} replicas, cleanup.policy {}, min.insync.replicas {}",
                topic,
                replicas.get(0).size(),
                configs.get(TopicConfig.CLEANUP_POLICY_CONFIG),
                configs.get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG));
    }

    /** The settings a new state topic is created with on a cluster of {@code brokers} registered brokers. */
    public static Map<String, String> creationConfigs(int brokers) {
        Map<String, String> configs = new LinkedHashMap<>();
        configs.put(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);
        configs.put(
                TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG,
                Integer.toString(Math.min(WANTED_MIN_INSYNC, replicationFor(brokers))));
        // explicit, so that a cluster-wide unclean.leader.election.enable=true cannot apply to this topic
        configs.put(TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG, "false");
        return configs;
    }

    /** The replication factor required (and used at creation) on a cluster of {@code brokers} registered brokers. */
    public static int replicationFor(int brokers) {
        return Math.max(1, Math.min(WANTED_REPLICAS, brokers));
    }

    /** Every problem of an existing topic, in a fixed order; empty when it is safe. */
    public static List<TopicSafetyProblem> problems(StateTopicDescription d) {
        String configsCmd = "kafka-configs.sh --bootstrap-server " + d.bootstrapServer()
                + " --entity-type topics --entity-name " + d.topic() + " --alter --add-config ";
        List<TopicSafetyProblem> out = new ArrayList<>();
        partitionCount(d).ifPresent(out::add);
        replicationFactor(d).ifPresent(out::add);
        cleanupPolicy(d, configsCmd).ifPresent(out::add);
        minInsyncReplicas(d, configsCmd).ifPresent(out::add);
        uncleanElection(d, configsCmd).ifPresent(out::add);
        return out;
    }

    /** One partition: the coordination and the order of the agent's writes rely on it. */
    private static Optional<TopicSafetyProblem> partitionCount(StateTopicDescription d) {
        int partitions = d.replicas().size();
        if (partitions == 1) {
            return Optional.empty();
        }
        String topicsCmd = "kafka-topics.sh --bootstrap-server " + d.bootstrapServer();
        return Optional.of(new TopicSafetyProblem(
                "partitions",
                Integer.toString(partitions),
                "1",
                "the agent's one-active-instance coordination and the order of its writes rely on a single partition",
                "Kafka cannot remove partitions. Stop every agent; check the topic holds no records ("
                        + "kafka-console-consumer.sh --bootstrap-server " + d.bootstrapServer() + " --topic "
                        + d.topic()
                        + " --from-beginning --formatter-property print.key=true --timeout-ms 10000), then delete it ("
                        + topicsCmd + " --delete --topic " + d.topic()
                        + ") and the agent creates it again. If it holds "
                        + "records, they are the only copy of original replica orders: copy them (key and value) to the "
                        + "new 1-partition topic before starting the agent"));
    }

    /** At least min(3, registered brokers) replicas, so that an acknowledged write survives a broker. */
    private static Optional<TopicSafetyProblem> replicationFactor(StateTopicDescription d) {
        int required = replicationFor(d.brokers().size());
        int rf = d.replicationFactor();
        if (rf >= required) {
            return Optional.empty();
        }
        return Optional.of(new TopicSafetyProblem(
                "replication factor",
                Integer.toString(rf),
                "at least " + required + " (min(3, " + d.brokers().size() + " registered brokers))",
                "an acknowledged write is lost with " + (rf <= 1 ? "the one broker holding it" : "too few brokers"),
                "kafka-reassign-partitions.sh --bootstrap-server " + d.bootstrapServer()
                        + " --execute --reassignment-json-file add-replicas.json, with add-replicas.json = "
                        + reassignmentJson(d, required)));
    }

    /** Compacted, and deleting nothing by age or size: the original replica orders must outlive any retention. */
    private static Optional<TopicSafetyProblem> cleanupPolicy(StateTopicDescription d, String configsCmd) {
        String policy = d.config(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_DELETE);
        Set<String> policies = Arrays.stream(policy.toLowerCase(Locale.ROOT).split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .collect(Collectors.toSet());
        String retentionMs = d.config(TopicConfig.RETENTION_MS_CONFIG, "604800000");
        String retentionBytes = d.config(TopicConfig.RETENTION_BYTES_CONFIG, "-1");
        String fixPolicy = configsCmd + TopicConfig.CLEANUP_POLICY_CONFIG + "=" + TopicConfig.CLEANUP_POLICY_COMPACT;
        if (!policies.contains(TopicConfig.CLEANUP_POLICY_COMPACT)) {
            return Optional.of(new TopicSafetyProblem(
                    TopicConfig.CLEANUP_POLICY_CONFIG,
                    "'" + policy + "'",
                    "'compact'",
                    "records older than retention.ms (" + retentionMs + " ms) are deleted, and with them the original "
                            + "replica orders of partitions still reordered",
                    fixPolicy));
        }
        if (policies.contains(TopicConfig.CLEANUP_POLICY_DELETE)
                && (!"-1".equals(retentionMs.trim()) || !"-1".equals(retentionBytes.trim()))) {
            return Optional.of(new TopicSafetyProblem(
                    TopicConfig.CLEANUP_POLICY_CONFIG,
                    "'" + policy + "' with retention.ms " + retentionMs + " and retention.bytes " + retentionBytes,
                    "'compact' (or 'compact,delete' with retention.ms and retention.bytes -1)",
                    "the delete policy removes old segments, compacted or not, and with them original replica orders",
                    fixPolicy));
        }
        return Optional.empty();
    }

    /**
     * {@code min.insync.replicas} between min(2, the replication factor it will have) and that factor: lower loses an
     * acknowledged write with one broker, higher refuses every write.
     */
    private static Optional<TopicSafetyProblem> minInsyncReplicas(StateTopicDescription d, String configsCmd) {
        int targetRf =
                Math.max(d.replicationFactor(), replicationFor(d.brokers().size()));
        int lowest = Math.min(WANTED_MIN_INSYNC, targetRf);
        String minIsr = d.config(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, "1");
        int minIsrValue = parseOr(minIsr, -1);
        if (minIsrValue >= lowest && minIsrValue <= targetRf) {
            return Optional.empty();
        }
        String range = lowest == targetRf
                ? Integer.toString(lowest)
                : "between " + lowest + " and " + targetRf + " (the replication factor)";
        String why = minIsrValue > targetRf
                ? "more in-sync replicas than the topic has: every write fails"
                : "an acknowledged write may exist on one broker only and be lost with it";
        return Optional.of(new TopicSafetyProblem(
                TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG,
                minIsr,
                range,
                why,
                configsCmd + TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG + "=" + lowest));
    }

    /** No unclean election: an out-of-sync leader would truncate what was acknowledged. */
    private static Optional<TopicSafetyProblem> uncleanElection(StateTopicDescription d, String configsCmd) {
        String unclean = d.config(TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG, "false");
        if (!"true".equalsIgnoreCase(unclean.trim())) {
            return Optional.empty();
        }
        return Optional.of(new TopicSafetyProblem(
                TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG,
                "true",
                "false",
                "an out-of-sync replica may become leader and truncate acknowledged records",
                configsCmd + TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG + "=false"));
    }

    /** A reassignment keeping each partition's replicas in order and adding live brokers up to {@code required}. */
    private static String reassignmentJson(StateTopicDescription d, int required) {
        StringBuilder sb = new StringBuilder("{\"version\":1,\"partitions\":[");
        boolean first = true;
        for (Map.Entry<Integer, List<Integer>> e : d.replicas().entrySet()) {
            if (e.getValue().size() >= required) {
                continue;
            }
            List<Integer> replicas = new ArrayList<>(e.getValue());
            for (int b : d.brokers()) {
                if (replicas.size() >= required) {
                    break;
                }
                if (!replicas.contains(b)) {
                    replicas.add(b);
                }
            }
            sb.append(first ? "" : ",")
                    .append("{\"topic\":\"")
                    .append(d.topic())
                    .append("\",\"partition\":")
                    .append(e.getKey())
                    .append(",\"replicas\":")
                    .append(replicas.toString().replace(" ", ""))
                    .append('}');
            first = false;
        }
        return sb.append("]}").toString();
    }

    private static int parseOr(String value, int fallback) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    /**
     * The brokers registered with the controller, fenced ones included (Kafka 4.0 and later); on older clusters, which
     * list only the live ones, those.
     *
     * <p>Why fenced ones count: pacing writes its first record when a broker goes down, so the topic is often created
     * while one is. Sized by the live brokers, it had one replica fewer and a {@code min.insync.replicas} equal to its
     * replication factor: every later restart of a broker holding it refused the agent's writes, and made every
     * rolling restart unsafe. Kafka places replicas on fenced brokers when it must ({@code StripedReplicaPlacer}).
     */
    static Collection<Node> registeredBrokers(Admin admin, long ms)
            throws InterruptedException, ExecutionException, TimeoutException {
        try {
            return admin.describeCluster(new DescribeClusterOptions().includeFencedBrokers(true))
                    .nodes()
                    .get(ms, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof UnsupportedVersionException)) {
                throw e;
            }
            return admin.describeCluster().nodes().get(ms, TimeUnit.MILLISECONDS);
        }
    }

    /** Creates the topic; false when another client created it first (it is then checked like any existing one). */
    private static boolean create(Admin admin, String topic, int brokers, long ms)
            throws InterruptedException, ExecutionException, TimeoutException {
        short replication = (short) replicationFor(brokers);
        Map<String, String> configs = creationConfigs(brokers);
        try {
            admin.createTopics(List.of(new NewTopic(topic, 1, replication).configs(configs)))
                    .all()
                    .get(ms, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicExistsException) {
                return false;
            }
            throw e;
        }
        LOG.info("Created state topic {}: 1 partition, replication factor {}, {}", topic, replication, configs);
        return true;
    }

    private static Optional<TopicDescription> describe(Admin admin, String topic, long ms)
            throws InterruptedException, ExecutionException, TimeoutException {
        try {
            return Optional.of(admin.describeTopics(List.of(topic))
                    .allTopicNames()
                    .get(ms, TimeUnit.MILLISECONDS)
                    .get(topic));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /**
     * The topic's configuration. A topic just created (by anyone) can be known to the broker that answered the
     * describe and not yet to the one that answers this: its "unknown topic" is retried within the time-out.
     */
    private static Config awaitConfigs(Admin admin, String topic, Timer timer, Time time)
            throws InterruptedException, ExecutionException, TimeoutException {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        while (true) {
            try {
                return admin.describeConfigs(List.of(resource))
                        .all()
                        .get(timer.timeoutMs(), TimeUnit.MILLISECONDS)
                        .get(resource);
            } catch (ExecutionException e) {
                timer.update();
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || timer.isExpired()) {
                    throw e;
                }
            }
            time.sleep(Math.min(DESCRIBE_RETRY_MS, timer.remainingMs()));
        }
    }

    /** Describes a topic another client just created: it can take a moment to be visible to every broker. */
    private static Optional<TopicDescription> awaitDescription(Admin admin, String topic, Timer timer, Time time)
            throws InterruptedException, ExecutionException, TimeoutException {
        while (true) {
            Optional<TopicDescription> d = describe(admin, topic, timer.timeoutMs());
            if (d.isPresent()) {
                return d;
            }
            timer.update();
            if (timer.isExpired()) {
                throw new TimeoutException(
                        "topic " + topic + " exists but could not be described within " + timer.timeoutMs() + " ms");
            }
            time.sleep(Math.min(DESCRIBE_RETRY_MS, timer.remainingMs()));
        }
    }
}
