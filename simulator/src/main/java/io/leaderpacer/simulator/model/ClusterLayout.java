package io.leaderpacer.simulator.model;

import io.leaderpacer.engine.cluster.PartitionId;
import io.leaderpacer.simulator.scenario.Placement;
import io.leaderpacer.simulator.scenario.RateSkew;
import io.leaderpacer.simulator.scenario.Scenario;
import io.leaderpacer.simulator.scenario.TopicSpec;
import io.leaderpacer.simulator.sim.RandomStreams;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * What never changes during a simulation: which partitions exist, where their replicas are, how much
 * traffic each carries, and the order in which the controller's candidate set iterates them.
 *
 * <p>Stored as parallel primitive arrays indexed by a dense partition index {@code p} and a
 * replica "slot" ({@code replicaStart[p] + position}), so that a million partitions cost tens of
 * megabytes and the hot loops touch no objects.
 */
public final class ClusterLayout {

    /** Broker count; ids are 0..brokers-1. */
    public final int brokers;
    /** Partition count over all topics. */
    public final int partitions;
    /** Topic names by topic index. */
    public final String[] topicNames;
    /** First partition index of each topic, plus one past the end. */
    public final int[] topicStart;
    /** Topic index of each partition. */
    public final int[] topicOf;
    /** Unclean leader election allowed, by topic index. */
    public final boolean[] uncleanByTopic;
    /** Retention by topic: how much history a replaced disk copies. */
    public final long[] retentionMsByTopic;
    /** Slot of each partition's first replica; {@code replicaStart[partitions]} = total slots. */
    public final int[] replicaStart;
    /** Broker of each replica slot, in assignment order. */
    public final int[] slotBroker;
    /** Partition of each replica slot. */
    public final int[] slotPartition;
    /** Slots hosted by each broker: {@code brokerSlots[brokerSlotStart[b] .. brokerSlotStart[b+1])}. */
    public final int[] brokerSlotStart;

    public final int[] brokerSlots;
    /** Produce bytes per second of each partition. */
    public final long[] bytesPerSecond;
    /** Bytes written to each partition while a restarted broker was down, beyond its steady rate (the backlog). */
    public final double[] backlogBytes;
    /** Producers of the partition wait for in-sync followers (acks=all); false for acks=1. */
    public final boolean[] acksAll;
    /** Produce requests per second of each partition, in thousandths (exact sums in long). */
    public final long[] produceMilliRequests;
    /** Consumer fetch requests per second of each partition, in thousandths. */
    public final long[] consumerMilliRequests;
    /** The controller's candidate iteration order: partition index at each position. */
    public final int[] candidateOrder;
    /** Names of the partitions, created once. */
    public final PartitionId[] ids;

    private ClusterLayout(Scenario scenario, RandomStreams random) {
        brokers = scenario.brokers();
        partitions = scenario.totalPartitions();
        int topics = scenario.topics().size();
        topicNames = new String[topics];
        topicStart = new int[topics + 1];
        uncleanByTopic = new boolean[topics];
        retentionMsByTopic = new long[topics];
        topicOf = new int[partitions];
        replicaStart = new int[partitions + 1];
        bytesPerSecond = new long[partitions];
        backlogBytes = new double[partitions];
        acksAll = new boolean[partitions];
        produceMilliRequests = new long[partitions];
        consumerMilliRequests = new long[partitions];
        ids = new PartitionId[partitions];

        int slots = 0;
        for (TopicSpec t : scenario.topics()) {
            slots += t.layout().partitions() * t.layout().replicationFactor();
        }
        slotBroker = new int[slots];
        slotPartition = new int[slots];

        SplittableRandom rates = random.stream("workload-rates");
        // A stream of its own: giving a topic a backlog must not change any other draw.
        SplittableRandom backlogs = random.stream("workload-backlog");
        // Drawn only for the striped placement, so the consecutive layout and every other stream stay as they were.
        SplittableRandom placementDraws = random.stream("replica-placement");
        boolean striped = scenario.placement() == Placement.STRIPED;
        int p = 0;
        int slot = 0;
        for (int t = 0; t < topics; t++) {
            TopicSpec spec = scenario.topics().get(t);
            topicNames[t] = spec.name();
            topicStart[t] = p;
            uncleanByTopic[t] = spec.uncleanLeaderElection();
            retentionMsByTopic[t] = spec.retentionMs();
            TopicSpec.Layout layout = spec.layout();
            TopicSpec.Traffic traffic = spec.traffic();
            TopicSpec.Backlog backlog = spec.backlog();
            double[] weights = weights(layout.partitions(), traffic.skew(), rates);
            double[] backlogWeights = backlog.bytes() <= 0
                    ? null
                    : backlog.sizes().isEmpty()
                            ? weights(layout.partitions(), backlog.skew(), backlogs)
                            : normalised(backlog.sizes());
            long milliRequests = Math.round(traffic.produceRequestsPerSecond() * 1000.0 / layout.partitions());
            long consumerMilli = Math.round(traffic.consumerRequestsPerSecond() * 1000.0 / layout.partitions());
            // Drawn for every topic, explicit assignment or not, so that giving one topic an assignment
            // does not move the start and shift of the others.
            StripedPlacement stripes = striped ? StripedPlacement.drawn(brokers, placementDraws) : null;
            for (int i = 0; i < layout.partitions(); i++, p++) {
                topicOf[p] = t;
                ids[p] = new PartitionId(spec.name(), i);
                bytesPerSecond[p] = Math.round(traffic.produceBytesPerSecond() * weights[i]);
                produceMilliRequests[p] = milliRequests;
                backlogBytes[p] = backlogWeights == null ? 0 : backlog.bytes() * backlogWeights[i];
                acksAll[p] = traffic.acksAll();
                consumerMilliRequests[p] = consumerMilli;
                replicaStart[p] = slot;
                for (int j = 0; j < layout.replicationFactor(); j++, slot++) {
                    // An explicit assignment wins. Otherwise the consecutive placement: partition i on broker
                    // i mod n, replica j on (i + j) mod n, counted over all topics so that small topics do not all
                    // start on broker 0; or Kafka's striped one, per topic from its drawn start and shift.
                    slotBroker[slot] = layout.hasExplicitAssignment()
                            ? layout.assignment().get(i)[j]
                            : stripes != null ? stripes.broker(i, j) : (p + j) % brokers;
                    slotPartition[slot] = p;
                }
            }
        }
        topicStart[topics] = p;
        replicaStart[partitions] = slot;

        brokerSlotStart = brokerSlotStarts(slotBroker, brokers);
        brokerSlots = slotsByBroker(slotBroker, brokerSlotStart);
        // Kafka iterates a hash set of partitions: effectively a fixed random order.
        candidateOrder = shuffled(partitions, random.stream("candidate-order"));
    }

    /** Where each broker's slots start in {@link #brokerSlots}, plus one past the end: a counting sort's offsets. */
    private static int[] brokerSlotStarts(int[] slotBroker, int brokers) {
        int[] start = new int[brokers + 1];
        for (int broker : slotBroker) {
            start[broker + 1]++;
        }
        for (int b = 0; b < brokers; b++) {
            start[b + 1] += start[b];
        }
        return start;
    }

    /** The slots grouped by broker, in slot order within each broker. */
    private static int[] slotsByBroker(int[] slotBroker, int[] brokerSlotStart) {
        int[] bySlot = new int[slotBroker.length];
        int[] fill = brokerSlotStart.clone();
        for (int s = 0; s < slotBroker.length; s++) {
            bySlot[fill[slotBroker[s]]++] = s;
        }
        return bySlot;
    }

    /** 0..n-1 in a random order (Fisher-Yates, drawing from {@code order} from the last position down). */
    private static int[] shuffled(int n, SplittableRandom order) {
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = order.nextInt(i + 1);
            int tmp = out[i];
            out[i] = out[j];
            out[j] = tmp;
        }
        return out;
    }

    /** Builds the layout of a scenario; all randomness comes from the given streams. */
    public static ClusterLayout of(Scenario scenario, RandomStreams random) {
        return new ClusterLayout(scenario, random);
    }

    public int replicaCount(int p) {
        return replicaStart[p + 1] - replicaStart[p];
    }

    /** The broker at a position of a partition's assignment. */
    public int replica(int p, int position) {
        return slotBroker[replicaStart[p] + position];
    }

    /** The replica slot of a broker in a partition, or -1. */
    public int slotOf(int p, int broker) {
        for (int s = replicaStart[p]; s < replicaStart[p + 1]; s++) {
            if (slotBroker[s] == broker) {
                return s;
            }
        }
        return -1;
    }

    /** The partition index of a name, or -1. */
    public int indexOf(PartitionId id) {
        for (int t = 0; t < topicNames.length; t++) {
            if (topicNames[t].equals(id.topic())) {
                int p = topicStart[t] + id.partition();
                return p < topicStart[t + 1] ? p : -1;
            }
        }
        return -1;
    }

    public int[] replicas(int p) {
        int[] out = new int[replicaCount(p)];
        for (int j = 0; j < out.length; j++) {
            out[j] = replica(p, j);
        }
        return out;
    }

    /** Relative byte rates of a topic's partitions, summing to 1. */
    private static double[] weights(int n, RateSkew skew, SplittableRandom random) {
        double[] w = new double[n];
        switch (skew.kind()) {
            case LOGNORMAL:
                for (int i = 0; i < n; i++) {
                    w[i] = StrictMath.exp(skew.parameter() * gaussian(random));
                }
                break;
            case ZIPF: {
                int[] rank = new int[n];
                for (int i = 0; i < n; i++) {
                    rank[i] = i;
                }
                for (int i = n - 1; i > 0; i--) {
                    int j = random.nextInt(i + 1);
                    int tmp = rank[i];
                    rank[i] = rank[j];
                    rank[j] = tmp;
                }
                for (int i = 0; i < n; i++) {
                    w[i] = 1.0 / StrictMath.pow(rank[i] + 1, skew.parameter());
                }
                break;
            }
            default:
                Arrays.fill(w, 1.0);
        }
        double sum = 0;
        for (double v : w) {
            sum += v;
        }
        for (int i = 0; i < n; i++) {
            w[i] /= sum;
        }
        return w;
    }

    private static double[] normalised(List<Double> sizes) {
        double sum = 0;
        for (double v : sizes) {
            sum += v;
        }
        double[] w = new double[sizes.size()];
        for (int i = 0; i < w.length; i++) {
            w[i] = sum > 0 ? sizes.get(i) / sum : 1.0 / w.length;
        }
        return w;
    }

    /** A standard normal draw (Box-Muller with StrictMath, identical on every JVM). */
    private static double gaussian(SplittableRandom random) {
        double u1 = 1.0 - random.nextDouble();
        double u2 = random.nextDouble();
        return StrictMath.sqrt(-2.0 * StrictMath.log(u1)) * StrictMath.cos(2 * Math.PI * u2);
    }
}
