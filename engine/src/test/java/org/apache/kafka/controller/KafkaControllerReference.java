package org.apache.kafka.controller;

import io.leaderpacer.engine.Election;
import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionId;
import io.leaderpacer.engine.cluster.PartitionState;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.metadata.BrokerRegistrationChangeRecord;
import org.apache.kafka.common.metadata.ConfigRecord;
import org.apache.kafka.common.metadata.FeatureLevelRecord;
import org.apache.kafka.common.metadata.PartitionChangeRecord;
import org.apache.kafka.common.metadata.PartitionRecord;
import org.apache.kafka.common.metadata.RegisterBrokerRecord;
import org.apache.kafka.common.metadata.TopicRecord;
import org.apache.kafka.common.utils.LogContext;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.BrokerRegistrationFencingChange;
import org.apache.kafka.metadata.BrokerRegistrationInControlledShutdownChange;
import org.apache.kafka.metadata.KafkaConfigSchema;
import org.apache.kafka.metadata.PartitionRegistration;
import org.apache.kafka.server.common.ApiMessageAndVersion;
import org.apache.kafka.server.common.EligibleLeaderReplicasVersion;
import org.apache.kafka.server.common.MetadataVersion;
import org.apache.kafka.server.common.TopicIdPartition;
import org.apache.kafka.timeline.SnapshotRegistry;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kafka 4.3.1's own controller state ({@link ReplicationControlManager} with its cluster, feature and
 * configuration managers), loaded from an engine snapshot the way a controller loads a metadata snapshot:
 * feature levels, broker registrations (then fencing and controlled shutdown as
 * {@link BrokerRegistrationChangeRecord}s), topic configs, topics and partitions. Its real
 * {@code maybeBalancePartitionLeaders} is the reference the engine's {@code immediate} is compared with, and
 * its records are replayed into it run after run.
 *
 * <p>Why a class in Kafka's package: the controller's builders and {@code maybeBalancePartitionLeaders} are
 * package-private. Test scope only; the engine's main code never sees a Kafka type.
 *
 * <p>What Kafka has no state for is left out of Kafka's side: a partition of a topic being deleted (Kafka
 * removes a deleted topic's partitions when it replays the RemoveTopicRecord). A partition under
 * reassignment is loaded with one adding replica that no run can bring into the ISR (see
 * {@link #addingReplica}), so that Kafka's builder does not complete the reassignment as a side effect.
 */
public final class KafkaControllerReference {

    /** The outcome of one run: the elections as engine values, in Kafka's record order, and Kafka's "more work". */
    public record Run(List<Election> elections, boolean moreWork) {}

    /** Timeline registry the managers share, as in the controller. */
    private final SnapshotRegistry registry = new SnapshotRegistry(new LogContext());

    private final FeatureControlManager features;
    private final ClusterControlManager cluster;
    private final ConfigurationControlManager configs;
    private final ReplicationControlManager replication;
    /** Topic ids by name and back, assigned when the topic records are written. */
    private final Map<String, Uuid> topicIds = new LinkedHashMap<>();

    private final Map<Uuid, String> topicNames = new LinkedHashMap<>();
    /** Partition ids per topic, in the order they were loaded. */
    private final Map<Uuid, List<Integer>> partitionsOf = new LinkedHashMap<>();
    /** Registered broker ids and their current broker epoch, to write registration changes with the right epoch. */
    private final Map<Integer, Long> registered = new LinkedHashMap<>();
    /** Partitions Kafka does not hold (topic being deleted); appended to the engine's snapshot so it must skip them. */
    private final List<PartitionState> absentFromKafka = new ArrayList<>();
    /** The engine-side brokers, kept in step with the registration changes. */
    private final Map<Integer, BrokerState> brokers = new LinkedHashMap<>();

    private KafkaControllerReference(int maxElectionsPerImbalance) {
        features = new FeatureControlManager.Builder()
                .setSnapshotRegistry(registry)
                .setQuorumFeatures(new QuorumFeatures(0, QuorumFeatures.defaultSupportedFeatureMap(true), List.of(0)))
                .build();
        cluster = new ClusterControlManager.Builder()
                .setSnapshotRegistry(registry)
                .setTime(Time.SYSTEM)
                .setFeatureControlManager(features)
                .setBrokerShutdownHandler((brokerId, clean, records) -> {})
                .build();
        ConfigDef topicConfigs = new ConfigDef()
                .define("min.insync.replicas", ConfigDef.Type.INT, 1, ConfigDef.Importance.HIGH, "min ISR");
        configs = new ConfigurationControlManager.Builder()
                .setSnapshotRegistry(registry)
                .setFeatureControl(features)
                .setKafkaConfigSchema(new KafkaConfigSchema(Map.of(ConfigResource.Type.TOPIC, topicConfigs), Map.of()))
                .build();
        replication = new ReplicationControlManager.Builder()
                .setSnapshotRegistry(registry)
                .setMaxElectionsPerImbalance(maxElectionsPerImbalance)
                .setConfigurationControl(configs)
                .setClusterControl(cluster)
                .setFeatureControl(features)
                .build();
        cluster.activate();
    }

    /**
     * Loads a snapshot. Brokers registered but fenced or shutting down are registered unfenced and then changed
     * with a registration-change record, as the cluster control manager would on a heartbeat.
     *
     * @param elrEnabled the eligible-leader-replicas feature (KIP-966); when off, the snapshot must have no ELR
     */
    public static KafkaControllerReference load(
            ClusterSnapshot snapshot, int maxElectionsPerImbalance, boolean elrEnabled) {
        KafkaControllerReference k = new KafkaControllerReference(maxElectionsPerImbalance);
        k.features.replay(new FeatureLevelRecord()
                .setName(MetadataVersion.FEATURE_NAME)
                .setFeatureLevel(MetadataVersion.latestProduction().featureLevel()));
        k.features.replay(new FeatureLevelRecord()
                .setName(EligibleLeaderReplicasVersion.FEATURE_NAME)
                .setFeatureLevel(
                        elrEnabled
                                ? EligibleLeaderReplicasVersion.ELRV_1.featureLevel()
                                : EligibleLeaderReplicasVersion.ELRV_0.featureLevel()));
        for (BrokerState b : snapshot.brokers().values()) {
            k.register(b.id(), false);
            k.changeBroker(b);
        }
        int partitionIndex = 0;
        for (PartitionState p : snapshot.partitions()) {
            if (p.topicDeleting()) {
                k.absentFromKafka.add(p);
                continue;
            }
            Uuid topicId = k.topicIds.get(p.id().topic());
            if (topicId == null) {
                topicId = new Uuid(13, k.topicIds.size() + 1L);
                k.topicIds.put(p.id().topic(), topicId);
                k.topicNames.put(topicId, p.id().topic());
                k.configs.replay(new ConfigRecord()
                        .setResourceType(ConfigResource.Type.TOPIC.id())
                        .setResourceName(p.id().topic())
                        .setName("min.insync.replicas")
                        .setValue("1"));
                k.replication.replay(new TopicRecord().setName(p.id().topic()).setTopicId(topicId));
            }
            k.replication.replay(partitionRecord(topicId, p, partitionIndex++));
            k.partitionsOf.computeIfAbsent(topicId, t -> new ArrayList<>()).add(p.id().partition());
        }
        return k;
    }

    /**
     * The replica loaded as "being added" for a partition under reassignment, or -1 when there is none: one outside
     * the ISR and the ELR that does not lead, so that no run of the loop can bring it into the ISR. Kafka's builder
     * completes a reassignment whose adding replicas are all in the ISR, as a side effect of any election, and
     * writes a record for it even when the leader stays; the engine's snapshot carries no adding replicas, and on a
     * live cluster that state lasts only until the controller handles the AlterPartition that completes it.
     */
    public static int addingReplica(PartitionState p) {
        for (int i = p.replicaCount() - 1; i >= 0; i--) {
            int r = p.replicaAt(i);
            if (!p.isrContains(r) && !p.elrContains(r) && r != p.leader()) {
                return r;
            }
        }
        return -1;
    }

    private static PartitionRecord partitionRecord(Uuid topicId, PartitionState p, int epoch) {
        List<Integer> adding = new ArrayList<>();
        if (p.reassigning()) {
            int r = addingReplica(p);
            if (r < 0) {
                throw new IllegalArgumentException("no replica of " + p + " can be loaded as being added");
            }
            adding.add(r);
        }
        return new PartitionRecord()
                .setTopicId(topicId)
                .setPartitionId(p.id().partition())
                .setReplicas(toList(p.replicas()))
                .setIsr(toList(p.isr()))
                .setEligibleLeaderReplicas(toList(p.elr()))
                .setLastKnownElr(List.of())
                .setAddingReplicas(adding)
                .setRemovingReplicas(List.of())
                .setLeader(p.leader())
                .setLeaderEpoch(epoch)
                .setPartitionEpoch(epoch);
    }

    /** A (re-)registration with a new broker epoch, as a broker that starts writes it; unfenced unless asked. */
    private void register(int id, boolean fenced) {
        long epoch = registered.getOrDefault(id, (long) id * 1000) + 1;
        cluster.replay(
                new RegisterBrokerRecord()
                        .setBrokerId(id)
                        .setBrokerEpoch(epoch)
                        .setIncarnationId(new Uuid(7, epoch))
                        .setFenced(fenced)
                        .setInControlledShutdown(false)
                        .setLogDirs(List.of(new Uuid(11, id + 1L))),
                epoch);
        registered.put(id, epoch);
        brokers.put(id, new BrokerState(id, fenced, false));
    }

    /** Whether {@link #changeBroker} can apply this state: the broker must be registered. */
    public boolean canChange(BrokerState b) {
        return registered.containsKey(b.id());
    }

    /**
     * Fences, unfences or takes a registered broker into controlled shutdown by a registration-change record, as
     * the cluster control manager writes on heartbeats; a broker leaves controlled shutdown only by registering
     * again (it restarted).
     */
    public void changeBroker(BrokerState b) {
        if (!registered.containsKey(b.id())) {
            throw new IllegalArgumentException("broker " + b.id() + " is not registered");
        }
        if (brokers.get(b.id()).inControlledShutdown() && !b.inControlledShutdown()) {
            register(b.id(), b.fenced());
            return;
        }
        cluster.replay(new BrokerRegistrationChangeRecord()
                .setBrokerId(b.id())
                .setBrokerEpoch(registered.get(b.id()))
                .setFenced(
                        (b.fenced() ? BrokerRegistrationFencingChange.FENCE : BrokerRegistrationFencingChange.UNFENCE)
                                .value())
                .setInControlledShutdown(
                        b.inControlledShutdown()
                                ? BrokerRegistrationInControlledShutdownChange.IN_CONTROLLED_SHUTDOWN.value()
                                : BrokerRegistrationInControlledShutdownChange.NONE.value()));
        brokers.put(b.id(), b);
    }

    /**
     * Kafka's run without replaying its records, so that the state stays as loaded: what a benchmark measures.
     *
     * @return how many records the run wrote
     */
    public int decideOnly() {
        return replication.maybeBalancePartitionLeaders().records().size();
    }

    /** Kafka's run: its real {@code maybeBalancePartitionLeaders}, whose records are then replayed. */
    public Run run() {
        return run(true);
    }

    /**
     * Kafka's run, its records replayed; without {@code describe} only the record count is kept (a benchmark's
     * drain), the elections list is empty.
     */
    public Run run(boolean describe) {
        ControllerResult<Boolean> result = replication.maybeBalancePartitionLeaders();
        if (!describe) {
            for (ApiMessageAndVersion m : result.records()) {
                replication.replay((PartitionChangeRecord) m.message());
            }
            return new Run(List.of(), result.response());
        }
        List<Election> elections = new ArrayList<>();
        for (ApiMessageAndVersion m : result.records()) {
            PartitionChangeRecord r = (PartitionChangeRecord) m.message();
            PartitionRegistration before = replication.getPartition(r.topicId(), r.partitionId());
            elections.add(new Election(
                    new PartitionId(topicNames.get(r.topicId()), r.partitionId()),
                    before.leader,
                    r.leader(),
                    before.replicas[0]));
        }
        for (ApiMessageAndVersion m : result.records()) {
            replication.replay((PartitionChangeRecord) m.message());
        }
        return new Run(elections, result.response());
    }

    /**
     * Kafka's state as an engine snapshot, partitions in Kafka's candidate-iteration order: the imbalanced
     * partitions in the order {@code imbalancedPartitions} iterates them, then the balanced ones, then the
     * partitions Kafka does not hold (a deleted topic's).
     */
    public ClusterSnapshot snapshotInIterationOrder() {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder().brokers(brokers.values());
        Set<TopicIdPartition> imbalanced = new HashSet<>();
        for (TopicIdPartition tp : replication.imbalancedPartitions()) {
            imbalanced.add(tp);
            b.partition(partitionState(tp.topicId(), tp.partitionId()));
        }
        for (Map.Entry<Uuid, List<Integer>> topic : partitionsOf.entrySet()) {
            for (int partition : topic.getValue()) {
                if (!imbalanced.contains(new TopicIdPartition(topic.getKey(), partition))) {
                    b.partition(partitionState(topic.getKey(), partition));
                }
            }
        }
        return b.partitions(absentFromKafka).build();
    }

    private PartitionState partitionState(Uuid topicId, int partition) {
        PartitionRegistration r = replication.getPartition(topicId, partition);
        return new PartitionState(
                new PartitionId(topicNames.get(topicId), partition),
                r.replicas,
                r.isr,
                r.elr,
                r.leader,
                r.addingReplicas.length > 0 || r.removingReplicas.length > 0,
                false,
                r.lastKnownElr);
    }

    /** Whether Kafka's candidate set is empty (nothing imbalanced). */
    public boolean balanced() {
        return !replication.arePartitionLeadersImbalanced();
    }

    private static List<Integer> toList(int[] values) {
        List<Integer> out = new ArrayList<>(values.length);
        for (int v : values) {
            out.add(v);
        }
        return out;
    }
}
