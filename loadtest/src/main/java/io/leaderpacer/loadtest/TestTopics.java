package io.leaderpacer.loadtest;

import io.leaderpacer.loadtest.load.SendClass;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The test's two topics and the state every round starts from.
 *
 * <p>Why explicit replica assignments: every broker must be the preferred leader of the same number of partitions,
 * with the followers spread evenly, so that the restarted broker's share is known and the other brokers share its
 * leadership equally while it is down. Why a reset between rounds: each round must start from a balanced cluster with
 * full ISRs, whatever the previous policy left.
 */
public final class TestTopics {

    /** Partitions per CreateTopics or CreatePartitions request: well under KRaft's 10,000 records per operation. */
    static final int PARTITIONS_PER_REQUEST = 5_000;
    /** How long the brokers may create none of a new topic's logs before its creation counts as stuck. */
    static final Duration CREATION_STALL = Duration.ofSeconds(60);

    private final Admin admin;
    private final List<Integer> brokers;
    private final int restartedBroker;

    public TestTopics(Admin admin, List<Integer> brokers, int restartedBroker) {
        this.admin = admin;
        this.brokers = List.copyOf(brokers);
        this.restartedBroker = restartedBroker;
    }

    /** Partition p's replicas: brokers p, p+1, p+2 (mod n), so preferred leaders and followers are balanced. */
    Map<Integer, List<Integer>> assignment(int partitions) {
        Map<Integer, List<Integer>> out = new HashMap<>();
        int n = brokers.size();
        for (int p = 0; p < partitions; p++) {
            List<Integer> replicas = new ArrayList<>();
            for (int r = 0; r < LoadTestSettings.REPLICATION_FACTOR; r++) {
                replicas.add(brokers.get((p + r) % n));
            }
            out.put(p, replicas);
        }
        return out;
    }

    /** Each load partition's class: protected when its preferred leader is the restarted broker. */
    SendClass[] classes(int partitions) {
        SendClass[] out = new SendClass[partitions];
        Map<Integer, List<Integer>> a = assignment(partitions);
        for (int p = 0; p < partitions; p++) {
            out[p] = a.get(p).get(0) == restartedBroker ? SendClass.PROTECTED : SendClass.OTHER;
        }
        return out;
    }

    /** Each partition's preferred leader: the load's producers are grouped by it. */
    int[] preferredLeaders(int partitions) {
        int[] out = new int[partitions];
        Map<Integer, List<Integer>> a = assignment(partitions);
        for (int p = 0; p < partitions; p++) {
            out[p] = a.get(p).get(0);
        }
        return out;
    }

    /**
     * Creates a topic with the balanced assignment and waits until every partition has its full ISR and every broker
     * has created its logs. A topic of more than {@link #PARTITIONS_PER_REQUEST} partitions is created with that many
     * and then grown in steps of as many:
     * KRaft refuses one request that would write more records than its limit per operation ("Excessively large
     * number of partitions per request"), which KIP-1358's 5,000 preferred partitions a broker need.
     */
    public void create(String name, int partitions, Map<String, String> configs) throws Exception {
        Map<Integer, List<Integer>> all = assignment(partitions);
        List<int[]> steps = steps(partitions, PARTITIONS_PER_REQUEST);
        Map<Integer, List<Integer>> first = new HashMap<>();
        for (int p = steps.get(0)[0]; p < steps.get(0)[1]; p++) {
            first.put(p, all.get(p));
        }
        admin.createTopics(List.of(new NewTopic(name, first).configs(configs)))
                .all()
                .get(60, TimeUnit.SECONDS);
        for (int[] step : steps.subList(1, steps.size())) {
            List<List<Integer>> more = new ArrayList<>();
            for (int p = step[0]; p < step[1]; p++) {
                more.add(all.get(p));
            }
            admin.createPartitions(Map.of(name, NewPartitions.increaseTo(step[1], more)))
                    .all()
                    .get(60, TimeUnit.SECONDS);
        }
        awaitFullIsr(Set.of(name), Duration.ofSeconds(60 + partitions / 100));
        awaitLogsCreated(name, expectedReplicas(all));
    }

    /** How many replicas of a topic with this assignment each broker hosts. */
    static Map<Integer, Integer> expectedReplicas(Map<Integer, List<Integer>> assignment) {
        Map<Integer, Integer> out = new HashMap<>();
        assignment.values().forEach(replicas -> replicas.forEach(b -> out.merge(b, 1, Integer::sum)));
        return out;
    }

    /**
     * Waits until every broker's log directories hold a log for each of its replicas of the topic, for as long as the
     * brokers keep creating them. Why: the ISR of a new partition is full from the start, before any broker has
     * created its log; at 15,000 partitions the brokers were still creating them minutes later (evidence run 11's
     * steady P99 of 25 s; 13,600-14,400 of 14,700 logs a broker after 207 s in run 12's first try). Why no fixed
     * limit: how long creation takes depends on the machine; a creation that stops is what is wrong.
     *
     * @throws IllegalStateException when no broker created another log for {@link #CREATION_STALL}, naming the counts
     */
    private void awaitLogsCreated(String name, Map<Integer, Integer> expected) throws Exception {
        long stalledAt = System.nanoTime() + CREATION_STALL.toNanos();
        Map<Integer, Integer> hosted = Map.of();
        while (System.nanoTime() < stalledAt) {
            try {
                Map<Integer, Integer> now = hostedReplicas(name, expected.keySet());
                if (now.equals(expected)) {
                    return;
                }
                if (!now.equals(hosted)) {
                    hosted = now;
                    stalledAt = System.nanoTime() + CREATION_STALL.toNanos();
                }
            } catch (ExecutionException | TimeoutException e) {
                // A broker busy creating logs may not answer in time: look again.
            }
            Thread.sleep(1000);
        }
        throw new IllegalStateException("topic " + name + ": the brokers created no more of its logs for "
                + CREATION_STALL.toSeconds() + " s (logs per broker " + hosted + ", expected " + expected + ")");
    }

    private Map<Integer, Integer> hostedReplicas(String name, Set<Integer> on) throws Exception {
        Map<Integer, Map<String, LogDirDescription>> dirs =
                admin.describeLogDirs(on).allDescriptions().get(30, TimeUnit.SECONDS);
        Map<Integer, Integer> out = new HashMap<>();
        dirs.forEach((b, byDir) -> out.put(b, (int) byDir.values().stream()
                .flatMap(d -> d.replicaInfos().keySet().stream())
                .filter(tp -> tp.topic().equals(name))
                .count()));
        return out;
    }

    /** The partitions each request creates, as [from, to) ranges of at most {@code perRequest}; at least one. */
    static List<int[]> steps(int partitions, int perRequest) {
        List<int[]> out = new ArrayList<>();
        for (int from = 0; from < partitions || out.isEmpty(); from += perRequest) {
            out.add(new int[] {from, Math.min(partitions, from + perRequest)});
        }
        return out;
    }

    /** Deletes the topic if it exists and waits until it is gone. */
    public void delete(String name) throws Exception {
        try {
            admin.deleteTopics(List.of(name)).all().get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                throw e;
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (admin.listTopics().names().get(10, TimeUnit.SECONDS).contains(name)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("topic " + name + " was not deleted within 60 s");
            }
            Thread.sleep(200);
        }
    }

    /**
     * Waits until every partition of these topics has all its replicas in the ISR.
     *
     * @return whether it happened within the limit
     */
    public boolean awaitFullIsr(Set<String> topics, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                Map<String, TopicDescription> d =
                        admin.describeTopics(topics).allTopicNames().get(10, TimeUnit.SECONDS);
                if (d.values().stream()
                        .flatMap(t -> t.partitions().stream())
                        .allMatch(p -> p.isr().size() == p.replicas().size() && p.leader() != null)) {
                    return true;
                }
            } catch (ExecutionException | TimeoutException e) {
                // Just created, or a broker restarting: try again.
            }
            Thread.sleep(250);
        }
        return false;
    }

    /**
     * Moves every partition of these topics back to its preferred leader (Kafka's preferred election, all at once)
     * and waits until that holds, so that the next round starts balanced.
     *
     * @return whether it held within the limit
     */
    boolean rebalance(Set<String> topics, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                admin.electLeaders(ElectionType.PREFERRED, null).partitions().get(30, TimeUnit.SECONDS);
                Map<String, TopicDescription> d =
                        admin.describeTopics(topics).allTopicNames().get(10, TimeUnit.SECONDS);
                if (d.values().stream().flatMap(t -> t.partitions().stream()).allMatch(TestTopics::ledByPreferred)) {
                    return true;
                }
            } catch (ExecutionException | TimeoutException e) {
                // Partitions reported "election not needed" or a broker still settling: look again.
            }
            Thread.sleep(500);
        }
        return false;
    }

    private static boolean ledByPreferred(TopicPartitionInfo p) {
        return p.leader() != null
                && !p.replicas().isEmpty()
                && p.leader().id() == p.replicas().get(0).id();
    }
}
