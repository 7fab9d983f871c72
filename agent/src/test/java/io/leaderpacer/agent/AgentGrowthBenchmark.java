package io.leaderpacer.agent;

import com.sun.management.OperatingSystemMXBean;
import com.sun.management.ThreadMXBean;
import io.leaderpacer.agent.core.PacingReport;
import io.leaderpacer.agent.core.RunRecord;
import io.leaderpacer.agent.kafka.ClusterReader;
import io.leaderpacer.agent.pacing.PacingLoop;
import io.leaderpacer.agent.pacing.QuietLooks;
import io.leaderpacer.cluster.ProcessKafkaCluster;
import io.leaderpacer.cluster.cpu.ProcessCpuTime;
import io.leaderpacer.engine.config.CatchUpPacing;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.engine.schedule.RunOutcome;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;

/**
 * Benchmark (not a test): how an agent run grows with the partition count on a real cluster, from a few thousand
 * partitions up to what one machine holds. Results go to docs/PERFORMANCE.md ("The agent at scale").
 *
 * <p>Why separate broker processes: a broker holds about one open file per replica, and one process may hold 20,000
 * on the machine the figures were measured on; {@link AgentRunBenchmark} keeps its cluster in its own JVM and stops
 * at 10,000 partitions. Here the brokers are child processes ({@link ProcessKafkaCluster}), each under its own
 * limit, and the partitions have one replica, so a cluster of n brokers holds about n x 18,000 partitions. Only this
 * JVM is the agent, so its heap and allocation are the agent's own.
 *
 * <p>At each size, once the brokers are idle again after creating the new topics, with every partition on its
 * preferred leader (nothing to elect):
 * <ul>
 *   <li>the agent's full run: read (describeCluster, listTopics, describeTopics, listPartitionReassignments),
 *       follow, decide, as the median of a few runs;</li>
 *   <li>the bytes the Admin client received per run (its {@code incoming-byte-total}) and the bytes allocated by
 *       this JVM's threads per run;</li>
 *   <li>the CPU time a full run costs each side (from {@code /proc/<pid>/stat} for the brokers, less what they use
 *       idle over the same time, and the controller,
 *       the JVM's own process CPU time for the agent): the brokers' share is what a cluster whose brokers have their
 *       own hosts spreads over them, the agent's is what stays on the agent's host whatever the cluster. CPU time
 *       well under the run's time times the cores says the read waits on round trips rather than on the cores;</li>
 *   <li>the agent's retained heap (used heap after full collections, agent built and run, minus before);</li>
 *   <li>a re-check's read of a fixed scope of 10 topics (1,000 partitions): what a partial read costs when the
 *       cluster around it grows;</li>
 *   <li>the run that elects once a partition's preferred replica can lead again, after a full read and after a
 *       re-check: a probe topic of 10 partitions with 2 replicas has its replica order reversed (an immediate
 *       reassignment: the leader stays, its preferred replica is in the ISR), then a run capped at 5 elections reads
 *       in full and elects 5, and leaves work, so the next run reads only the probe topic and elects the rest. The
 *       delay from an ISR change to its election is the wait for the next run plus this run;</li>
 *   <li>a catch-up pacing look (static mode, nothing to pace), full and quiet: a full look reads every partition
 *       and the throttle configs; a quiet one, which follows a full look that found nothing to pace, reads the
 *       brokers only. The loop's clock is stepped past the quiet period's bound to force each full look.</li>
 * </ul>
 *
 * <p>Arguments (all optional): sizes as a comma-separated list of partition counts (1000,3000,10000,30000,60000),
 * brokers (4), measured runs per size (5).
 */
public final class AgentGrowthBenchmark {

    private static final int PARTITIONS_PER_TOPIC = 100;
    /** Topics per CreateTopics request: 20 x 101 records stays under KRaft's 10,000 records per operation. */
    private static final int TOPICS_PER_CREATE = 20;

    private static final int SCOPE_TOPICS = 10;
    private static final Duration TIMEOUT = Duration.ofMinutes(2);
    /** Not a growth topic: the probe whose order is reversed to make elections. */
    private static final String PROBE_TOPIC = "probe-elect";

    private static final int PROBE_PARTITIONS = 10;

    private AgentGrowthBenchmark() {}

    public static void main(String[] args) throws Exception {
        int[] sizes = Arrays.stream((args.length > 0 ? args[0] : "1000,3000,10000,30000,60000").split(","))
                .mapToInt(s -> Integer.parseInt(s.trim()))
                .toArray();
        int brokers = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        System.out.printf(
                Locale.ROOT,
                "agent growth benchmark: %d brokers as separate processes, topics of %d partitions"
                        + " with 1 replica, sizes %s, %d runs each%n",
                brokers,
                PARTITIONS_PER_TOPIC,
                Arrays.toString(sizes),
                runs);
        System.out.println("| partitions | full run | its read | follow + decide | received per run | allocated per run"
                + " | CPU per full run: brokers / controller / agent | agent heap retained"
                + " | re-check read of 1,000 partitions | electing run after a full read | electing run after a re-check"
                + " | pacing look, full | pacing look, quiet | created in |");
        System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        try (ProcessKafkaCluster cluster = ProcessKafkaCluster.builder()
                .brokers(brokers)
                .brokerHeap("1500m")
                .controllerHeap("1g")
                .startTimeout(Duration.ofMinutes(3))
                .build()) {
            cluster.start();
            try (Admin admin = Admin.create(Map.of(
                    AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                    AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis(),
                    AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis()))) {
                createProbe(admin, cluster.brokerIds().subList(0, 2));
                int topics = 0;
                for (int size : sizes) {
                    long t0 = System.nanoTime();
                    int wanted = size / PARTITIONS_PER_TOPIC;
                    createTopics(admin, topics, wanted);
                    topics = Math.max(topics, wanted);
                    awaitLeaders(admin, topics * PARTITIONS_PER_TOPIC);
                    double createdSeconds = (System.nanoTime() - t0) / 1e9;
                    double idle = awaitQuiet(cluster);
                    System.out.println(
                            measure(cluster, admin, topics * PARTITIONS_PER_TOPIC, runs, createdSeconds, idle));
                }
            }
        }
    }

    private static String measure(
            ProcessKafkaCluster cluster,
            Admin admin,
            int partitions,
            int runs,
            double createdSeconds,
            double brokersIdle)
            throws Exception {
        PacerConfig immediate = PacerConfig.fromMap(Map.of("leader.imbalance.check.interval.seconds", "1"));
        long heapBefore = usedAfterGc();
        double[] total = new double[runs];
        double[] read = new double[runs];
        double[] decide = new double[runs];
        double[] received = new double[runs];
        double[] allocated = new double[runs];
        double[] brokerCpu = new double[runs];
        double[] controllerCpu = new double[runs];
        double[] agentCpu = new double[runs];
        long retained;
        try (PacerAgent agent = PacerAgent.builder(admin)
                .basePolicy(immediate)
                .requestTimeout(TIMEOUT)
                .build()) {
            AgentRunBenchmark.check(agent.runOnce()); // warm-up, and the first full build of the followed state
            for (int i = 0; i < runs; i++) {
                double bytesBefore = receivedBytes(admin);
                long allocatedBefore = allocatedBytes();
                long brokersBefore = brokersCpuNanos(cluster);
                long controllerBefore =
                        ProcessCpuTime.of(cluster.pid(cluster.controllerId())).toNanos();
                long agentBefore = agentCpuNanos();
                long wallBefore = System.nanoTime();
                RunRecord r = agent.runOnce();
                long wall = System.nanoTime() - wallBefore;
                agentCpu[i] = (agentCpuNanos() - agentBefore) / 1e6;
                controllerCpu[i] =
                        (ProcessCpuTime.of(cluster.pid(cluster.controllerId())).toNanos() - controllerBefore) / 1e6;
                // What the brokers use idle over the same time is not the read's.
                brokerCpu[i] = (brokersCpuNanos(cluster) - brokersBefore - brokersIdle * wall) / 1e6;
                AgentRunBenchmark.check(r);
                allocated[i] = allocatedBytes() - allocatedBefore;
                received[i] = receivedBytes(admin) - bytesBefore;
                total[i] = r.timings().totalMillis();
                read[i] = r.timings().readNanos() / 1e6;
                decide[i] = r.timings().decideNanos() / 1e6;
            }
            retained = usedAfterGc() - heapBefore;
        }
        ClusterReader reader = new ClusterReader(admin, TIMEOUT, 200);
        SortedSet<String> scope = new TreeSet<>();
        for (int t = 0; t < SCOPE_TOPICS; t++) {
            scope.add(topicName(t));
        }
        double[] partial = new double[runs];
        reader.read(scope); // warm-up
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            reader.read(scope);
            partial[i] = (System.nanoTime() - t0) / 1e6;
        }
        double[][] electing = electingRuns(admin, runs);
        double[][] looks = pacingLooks(admin, runs);
        return String.format(
                Locale.ROOT,
                "| %,d | %s ms | %s ms | %s ms | %s MB | %s MB | %.0f / %.0f / %.0f ms | %.1f MB | %s ms | %s ms | %s ms"
                        + " | %s ms | %s ms | %.0f s |",
                partitions,
                spread(total, 0),
                spread(read, 0),
                spread(decide, 1),
                spread(mb(received), 2),
                spread(mb(allocated), 1),
                AgentRunBenchmark.median(brokerCpu),
                AgentRunBenchmark.median(controllerCpu),
                AgentRunBenchmark.median(agentCpu),
                retained / 1e6,
                spread(partial, 1),
                spread(electing[0], 0),
                spread(electing[1], 0),
                spread(looks[0], 0),
                spread(looks[1], 1),
                createdSeconds);
    }

    /**
     * Per run, the time of a run electing half the probe's partitions after a full read, and of the next one, which
     * re-checks the probe topic only and elects the rest, in ms: {full[], recheck[]}.
     */
    private static double[][] electingRuns(Admin admin, int runs) throws Exception {
        PacerConfig capped = PacerConfig.fromMap(Map.of(
                "leader.imbalance.check.interval.seconds",
                "300",
                "leader.imbalance.election.max.per.run",
                String.valueOf(PROBE_PARTITIONS / 2)));
        double[] full = new double[runs];
        double[] recheck = new double[runs];
        try (PacerAgent agent = PacerAgent.builder(admin)
                .basePolicy(capped)
                .requestTimeout(TIMEOUT)
                .build()) {
            settle(agent); // warm-up, and a run that left no work: the next one reads in full
            for (int i = 0; i < runs; i++) {
                int preferred = reverseProbe(admin);
                RunRecord first = agent.runOnce();
                checkElected(first, false, preferred);
                RunRecord second = agent.runOnce();
                checkElected(second, true, preferred);
                full[i] = first.timings().totalMillis();
                recheck[i] = second.timings().totalMillis();
                settle(agent);
            }
        }
        return new double[][] {full, recheck};
    }

    /** Runs until a run leaves no work, so that the next one reads in full. */
    private static void settle(PacerAgent agent) {
        for (int i = 0; i < 10; i++) {
            RunRecord r = agent.runOnce();
            AgentRunBenchmark.check(r);
            if (r.decision().orElseThrow().outcome() == RunOutcome.DONE) {
                return;
            }
        }
        throw new IllegalStateException("the agent still has work after 10 runs on a cluster with nothing to elect");
    }

    private static void checkElected(RunRecord r, boolean partialRead, int preferred) {
        AgentRunBenchmark.check(r);
        if (r.timings().partialRead() != partialRead || r.electedTo(preferred) != PROBE_PARTITIONS / 2) {
            throw new IllegalStateException("expected a run with a " + (partialRead ? "partial" : "full")
                    + " read electing " + PROBE_PARTITIONS / 2 + " to broker " + preferred + ": " + r.summary());
        }
    }

    private static void createProbe(Admin admin, List<Integer> brokers) throws Exception {
        Map<Integer, List<Integer>> assignment = new HashMap<>();
        for (int p = 0; p < PROBE_PARTITIONS; p++) {
            assignment.put(p, brokers);
        }
        admin.createTopics(List.of(new NewTopic(PROBE_TOPIC, assignment))).all().get();
    }

    /**
     * Reverses the probe's replica order (both replicas in sync, so the reassignment completes at once and the leader
     * stays) and waits until every partition is off its new preferred leader. Returns the new preferred broker.
     */
    private static int reverseProbe(Admin admin) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            try {
                TopicDescription d = admin.describeTopics(List.of(PROBE_TOPIC))
                        .allTopicNames()
                        .get()
                        .get(PROBE_TOPIC);
                Map<TopicPartition, Optional<NewPartitionReassignment>> reversed = new HashMap<>();
                List<Integer> order = null;
                for (var p : d.partitions()) {
                    List<Integer> replicas = new ArrayList<>(
                            p.replicas().stream().map(n -> n.id()).toList());
                    Collections.reverse(replicas);
                    order = replicas;
                    reversed.put(
                            new TopicPartition(PROBE_TOPIC, p.partition()),
                            Optional.of(new NewPartitionReassignment(replicas)));
                }
                admin.alterPartitionReassignments(reversed).all().get();
                int preferred = order.get(0);
                awaitImbalanced(admin, preferred, deadline);
                return preferred;
            } catch (ExecutionException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(200); // the probe topic just created, or a reassignment still completing: try again
            }
        }
    }

    private static void awaitImbalanced(Admin admin, int preferred, long deadline) throws Exception {
        while (System.nanoTime() < deadline) {
            TopicDescription d = admin.describeTopics(List.of(PROBE_TOPIC))
                    .allTopicNames()
                    .get()
                    .get(PROBE_TOPIC);
            if (d.partitions().stream()
                    .allMatch(p -> p.replicas().get(0).id() == preferred
                            && p.leader() != null
                            && p.leader().id() != preferred
                            && p.isr().size() == 2)) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("the probe's reversed order did not show within " + TIMEOUT);
    }

    /** Per run, a full pacing look's time and a quiet one's, in ms: {full[], quiet[]}. */
    private static double[][] pacingLooks(Admin admin, int runs) throws Exception {
        CatchUpPacing config = PacerConfig.fromMap(Map.of("leader.imbalance.catch.up.pacing", "static"))
                .pacing();
        SteppedTime clock = new SteppedTime();
        PacingLoop loop = PacingLoop.builder(admin, TIMEOUT, 200).time(clock).build();
        check(loop.tick(config), false); // warm-up, with the one-time ledger load and permission check
        double[] full = new double[runs];
        double[] quiet = new double[runs];
        for (int i = 0; i < runs; i++) {
            clock.step(Duration.ofMillis(QuietLooks.FULL_LOOK_EVERY_MS));
            long t0 = System.nanoTime();
            check(loop.tick(config), false);
            full[i] = (System.nanoTime() - t0) / 1e6;
            clock.step(Duration.ofSeconds(2));
            t0 = System.nanoTime();
            check(loop.tick(config), true);
            quiet[i] = (System.nanoTime() - t0) / 1e6;
        }
        return new double[][] {full, quiet};
    }

    private static void check(PacingReport r, boolean quiet) {
        if (r.problem().isPresent() || !r.brokers().isEmpty() || r.quiet() != quiet) {
            throw new IllegalStateException(
                    "expected a " + (quiet ? "quiet" : "full") + " look with nothing to pace: " + r);
        }
    }

    private static void createTopics(Admin admin, int from, int to) throws Exception {
        List<NewTopic> batch = new ArrayList<>();
        for (int t = from; t < to; t++) {
            batch.add(new NewTopic(topicName(t), PARTITIONS_PER_TOPIC, (short) 1));
            if (batch.size() == TOPICS_PER_CREATE || t == to - 1) {
                admin.createTopics(batch).all().get();
                batch.clear();
            }
        }
    }

    private static String topicName(int t) {
        return String.format(Locale.ROOT, "growth-%05d", t);
    }

    /** Waits until every partition of the growth topics has a leader: a broker may still be creating its logs. */
    private static void awaitLeaders(Admin admin, int partitions) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(20).toNanos();
        while (System.nanoTime() < deadline) {
            List<String> names = admin.listTopics(new ListTopicsOptions()).names().get().stream()
                    .filter(n -> n.startsWith("growth-"))
                    .toList();
            try {
                Collection<TopicDescription> all =
                        admin.describeTopics(names).allTopicNames().get().values();
                long led = all.stream()
                        .flatMap(d -> d.partitions().stream())
                        .filter(p -> p.leader() != null)
                        .count();
                if (led == partitions) {
                    return;
                }
            } catch (ExecutionException e) {
                // A topic just created is not yet known to the broker that answered: look again.
            }
            Thread.sleep(1_000);
        }
        throw new IllegalStateException("not every one of " + partitions + " partitions has a leader after 20 minutes");
    }

    /**
     * Waits until the brokers are done with the topics just created (their CPU use together under a tenth of a core
     * over 2 s, for at most 3 minutes), so that a run's figures are not theirs; returns their idle use, in cores.
     */
    private static double awaitQuiet(ProcessKafkaCluster cluster) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + Duration.ofMinutes(3).toNanos();
        double use;
        do {
            long cpu0 = brokersCpuNanos(cluster);
            long t0 = System.nanoTime();
            Thread.sleep(2_000);
            use = (double) (brokersCpuNanos(cluster) - cpu0) / (System.nanoTime() - t0);
        } while (use > 0.1 && System.nanoTime() < deadline);
        System.out.printf(
                Locale.ROOT, "brokers idle at %.3f cores after %.0f s%n", use, (System.nanoTime() - start) / 1e9);
        return use;
    }

    /** CPU time used so far by all the broker processes together, in ns. */
    private static long brokersCpuNanos(ProcessKafkaCluster cluster) {
        return cluster.brokerIds().stream()
                .mapToLong(id -> ProcessCpuTime.of(cluster.pid(id)).toNanos())
                .sum();
    }

    /** CPU time used so far by this JVM (every thread, the collector's included), in ns. */
    private static long agentCpuNanos() {
        return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static double receivedBytes(Admin admin) {
        for (Map.Entry<MetricName, ? extends Metric> e : admin.metrics().entrySet()) {
            if (e.getKey().name().equals("incoming-byte-total")
                    && e.getKey().group().equals("admin-client-metrics")) {
                return ((Number) e.getValue().metricValue()).doubleValue();
            }
        }
        throw new IllegalStateException("the Admin client has no incoming-byte-total metric");
    }

    /** Bytes allocated so far by this JVM's live threads (the Admin client's network thread included). */
    private static long allocatedBytes() {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        return Arrays.stream(threads.getThreadAllocatedBytes(threads.getAllThreadIds()))
                .filter(b -> b > 0)
                .sum();
    }

    private static long usedAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static double[] mb(double[] bytes) {
        return Arrays.stream(bytes).map(b -> b / 1e6).toArray();
    }

    /** The median and, in parentheses, the range. */
    private static String spread(double[] values, int decimals) {
        String f = "%." + decimals + "f";
        return String.format(
                Locale.ROOT,
                f + " (" + f + "-" + f + ")",
                AgentRunBenchmark.median(values),
                Arrays.stream(values).min().orElse(0),
                Arrays.stream(values).max().orElse(0));
    }
}
