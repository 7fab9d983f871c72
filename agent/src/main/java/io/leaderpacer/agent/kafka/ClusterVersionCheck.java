package io.leaderpacer.agent.kafka;

import io.leaderpacer.agent.core.TimeoutMs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterPartitionReassignmentsOptions;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.DescribeFeaturesOptions;
import org.apache.kafka.clients.admin.ElectLeadersOptions;
import org.apache.kafka.clients.admin.FeatureMetadata;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.clients.admin.ListPartitionReassignmentsOptions;
import org.apache.kafka.clients.admin.SupportedVersionRange;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.UnsupportedVersionException;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Which Kafka the agent is talking to, and whether it can serve it: KRaft mode, and every API the runs need.
 *
 * <p>Why: the agent's one client (kafka-clients 4.3) talks to every broker from Kafka 2.1 on, because each request
 * is sent in the highest version both sides know (Kafka's API version negotiation). That says nothing about
 * whether the cluster runs in KRaft mode (a ZooKeeper cluster answers the same calls, but its controller is a
 * broker running Kafka's own preferred-leader task from ZooKeeper state the agent cannot see), nor whether it
 * serves the calls the runs make later, when a failure would come half-way. So before the first run:
 * <ol>
 *   <li>{@link #detect()}: {@code describeFeatures}. A KRaft cluster always has a finalized {@code metadata.version};
 *       a ZooKeeper-mode cluster has none. Its level names the cluster's version (e.g. {@code 3.9-IV0}); the highest
 *       level the answering broker supports names its software's release. A ZooKeeper-mode broker reports no such
 *       level (seen on a real 3.9.1), so there the version is read from its {@code inter.broker.protocol.version}
 *       (a broker config that defaults to its software's own version).</li>
 *   <li>{@link #requireApis}: each API of a run that no start-up check calls, probed without side effects: the
 *       reassignment listing, a preferred election and a reassignment cancel, both for a partition that cannot
 *       exist. Kafka answers those with "unknown partition"; a broker without the API answers "unsupported
 *       version", and the agent refuses, naming the API.</li>
 * </ol>
 * The other calls of a run (describeCluster, describeTopics, describeConfigs, the agent's own topics, the group
 * and transactions) are made by the start-up checks themselves; an "unsupported version" there is refused the
 * same way by the start-up check.
 */
public final class ClusterVersionCheck {

    /** The feature every KRaft cluster finalizes. */
    public static final String METADATA_VERSION = "metadata.version";
    /** A partition of a topic that cannot exist (names starting with two underscores are Kafka's own): probe target. */
    static final TopicPartition PROBE = new TopicPartition("__leader-pacer-api-probe-does-not-exist", 0);

    /** The cluster; owned by the caller. */
    private final Admin admin;
    /** Bound on each Admin call. */
    private final Duration timeout;

    public ClusterVersionCheck(Admin admin, Duration timeout) {
        this.admin = Objects.requireNonNull(admin, "admin");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /**
     * What the cluster says of its version.
     *
     * @param metadataLevel the finalized {@code metadata.version} level; empty in ZooKeeper mode
     * @param softwareLevel the highest {@code metadata.version} level the answering broker supports; empty when it
     *                      reports none
     * @param interBrokerProtocol a ZooKeeper-mode broker's {@code inter.broker.protocol.version} (e.g.
     *                      {@code 3.9-IV0}); empty in KRaft mode or when it could not be read
     */
    public record ClusterVersion(
            Optional<Integer> metadataLevel, Optional<Integer> softwareLevel, Optional<String> interBrokerProtocol) {

        public boolean kraft() {
            return metadataLevel.isPresent();
        }

        /** "Kafka 3.9 (metadata.version 3.9-IV0)", or "Kafka 3.9 (inter.broker.protocol.version 3.9-IV0) in ZooKeeper mode". */
        public String describe() {
            String release = softwareLevel
                    .map(MetadataVersionNames::release)
                    .filter(r -> !r.isEmpty())
                    .or(() -> interBrokerProtocol.map(
                            ibp -> ibp.contains("-IV") ? ibp.substring(0, ibp.indexOf("-IV")) : ibp))
                    .map(r -> "Kafka " + r)
                    .orElse("Kafka (release not reported)");
            if (metadataLevel.isPresent()) {
                return release + " (metadata.version " + MetadataVersionNames.name(metadataLevel.get()) + ")";
            }
            return release
                    + interBrokerProtocol
                            .map(ibp -> " (" + INTER_BROKER_PROTOCOL + " " + ibp + ")")
                            .orElse("") + " in ZooKeeper mode";
        }
    }

    /** A ZooKeeper-mode broker's protocol version: names its release when no feature level does. */
    public static final String INTER_BROKER_PROTOCOL = "inter.broker.protocol.version";

    /**
     * Reads the cluster's features.
     *
     * @throws UnsupportedClusterException when the cluster cannot describe its features (older than Kafka 2.7)
     * @throws ExecutionException          when Kafka refused the call for another reason
     */
    public ClusterVersion detect()
            throws InterruptedException, ExecutionException, TimeoutException, UnsupportedClusterException {
        FeatureMetadata features;
        try {
            features = await(admin.describeFeatures(new DescribeFeaturesOptions().timeoutMs(timeoutMs()))
                    .featureMetadata());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnsupportedVersionException) {
                throw new UnsupportedClusterException(
                        "the cluster does not answer DescribeFeatures (Kafka older than 2.7, so"
                                + " not KRaft): the agent needs a KRaft cluster, Kafka 3.3 or later");
            }
            throw e;
        }
        Optional<Integer> finalized = Optional.ofNullable(
                        features.finalizedFeatures().get(METADATA_VERSION))
                .map(FinalizedVersionRange::maxVersionLevel)
                .map(Integer::valueOf)
                .filter(l -> l > 0);
        Optional<Integer> supported = Optional.ofNullable(
                        features.supportedFeatures().get(METADATA_VERSION))
                .map(SupportedVersionRange::maxVersion)
                .map(Integer::valueOf)
                .filter(l -> l > 0);
        return new ClusterVersion(
                finalized, supported, finalized.isPresent() ? Optional.empty() : interBrokerProtocol());
    }

    /** One broker's {@code inter.broker.protocol.version}; empty when it cannot be read (e.g. not authorized). */
    private Optional<String> interBrokerProtocol() throws InterruptedException, TimeoutException {
        try {
            Node any =
                    await(admin.describeCluster(new DescribeClusterOptions().timeoutMs(timeoutMs()))
                                    .nodes())
                            .stream()
                            .findFirst()
                            .orElse(null);
            if (any == null) {
                return Optional.empty();
            }
            ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(any.id()));
            Config config = await(
                            admin.describeConfigs(Set.of(broker), new DescribeConfigsOptions().timeoutMs(timeoutMs()))
                                    .all())
                    .get(broker);
            return Optional.ofNullable(config == null ? null : config.get(INTER_BROKER_PROTOCOL))
                    .map(ConfigEntry::value)
                    .filter(v -> !v.isBlank());
        } catch (ExecutionException e) {
            return Optional.empty();
        }
    }

    /**
     * Refuses a cluster in ZooKeeper mode.
     *
     * @throws UnsupportedClusterException naming the version
     */
    public static void requireKraft(ClusterVersion version, String clusterLabel) throws UnsupportedClusterException {
        if (!version.kraft()) {
            throw new UnsupportedClusterException("the cluster at " + clusterLabel + " runs " + version.describe()
                    + " (no " + METADATA_VERSION
                    + " is finalized): the agent needs a KRaft cluster (Kafka 3.3 or later);"
                    + " migrate it to KRaft first");
        }
    }

    /**
     * Probes the APIs of a run that the start-up checks do not call.
     *
     * @throws UnsupportedClusterException naming the version and the first missing API
     * @throws ExecutionException          when Kafka refused a probe for another reason (e.g. not authorized)
     */
    public void requireApis(ClusterVersion version, String clusterLabel)
            throws InterruptedException, ExecutionException, TimeoutException, UnsupportedClusterException {
        probe(
                version,
                clusterLabel,
                "ListPartitionReassignments",
                "to leave partitions under reassignment alone",
                admin.listPartitionReassignments(
                                Set.of(PROBE), new ListPartitionReassignmentsOptions().timeoutMs(timeoutMs()))
                        .reassignments());
        probe(
                version,
                clusterLabel,
                "ElectLeaders",
                "for the preferred-leader elections",
                admin.electLeaders(
                                ElectionType.PREFERRED, Set.of(PROBE), new ElectLeadersOptions().timeoutMs(timeoutMs()))
                        .partitions());
        probe(
                version,
                clusterLabel,
                "AlterPartitionReassignments",
                "for the reorder of deprioritized brokers (KIP-491)",
                admin.alterPartitionReassignments(
                                Map.of(PROBE, Optional.empty()),
                                new AlterPartitionReassignmentsOptions().timeoutMs(timeoutMs()))
                        .all());
    }

    /** The refusal for an "unsupported version" answer to a start-up call the agent makes elsewhere. */
    public static UnsupportedClusterException missingApi(
            Optional<ClusterVersion> version, String clusterLabel, UnsupportedVersionException e) {
        String which = version.map(ClusterVersion::describe).orElse("Kafka of an unknown version");
        return new UnsupportedClusterException("the cluster at " + clusterLabel + " (" + which + ") does not support a"
                + " request the agent needs: " + e.getMessage());
    }

    private void probe(ClusterVersion version, String clusterLabel, String api, String purpose, KafkaFuture<?> answer)
            throws InterruptedException, ExecutionException, TimeoutException, UnsupportedClusterException {
        try {
            Object result = await(answer);
            if (result instanceof Map<?, ?> perPartition) {
                // electLeaders: one answer per partition, as an Optional error.
                for (Object v : perPartition.values()) {
                    if (v instanceof Optional<?> o && o.isPresent() && o.get() instanceof UnsupportedVersionException) {
                        throw unsupported(version, clusterLabel, api, purpose);
                    }
                }
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnsupportedVersionException) {
                throw unsupported(version, clusterLabel, api, purpose);
            }
            if (!(e.getCause() instanceof ApiException) || e.getCause() instanceof AuthorizationException) {
                throw e;
            }
            // Any other answer of Kafka's (unknown partition, no reassignment in progress): the API is there.
        }
    }

    private static UnsupportedClusterException unsupported(
            ClusterVersion version, String clusterLabel, String api, String purpose) {
        return new UnsupportedClusterException("the cluster at " + clusterLabel + " (" + version.describe()
                + ") does not support the " + api + " API, which the agent needs " + purpose);
    }

    private int timeoutMs() {
        return TimeoutMs.of(timeout);
    }

    private <T> T await(KafkaFuture<T> future) throws InterruptedException, ExecutionException, TimeoutException {
        return future.get(timeout.toMillis() + 5_000, TimeUnit.MILLISECONDS);
    }
}
