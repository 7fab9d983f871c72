package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.PacerAgent;
import io.leaderpacer.agent.RecoveryScenario;
import io.leaderpacer.agent.core.ActionGuard;
import io.leaderpacer.agent.core.PacingReport;
import io.leaderpacer.agent.dynamic.CompactedTopic;
import io.leaderpacer.agent.throttle.BrokerScope;
import io.leaderpacer.agent.throttle.ReplicationThrottles;
import io.leaderpacer.agent.throttle.ThrottleRate;
import io.leaderpacer.agent.throttle.ThrottleSettings;
import io.leaderpacer.agent.throttle.ThrottleSide;
import io.leaderpacer.agent.throttle.ThrottledReplicas;
import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.engine.pacing.BrokerPacing;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.utils.Time;
import org.assertj.core.api.ThrowingConsumer;
import org.awaitility.core.ThrowingRunnable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Catch-up pacing on a real in-JVM 3-broker KRaft cluster: what the agent sets while broker 2 recovers, that it
 * keeps what others set, that it removes exactly what it set, and that an instance that dies without cleaning up is
 * cleaned up after by the next one. The agent is driven look by look ({@link PacerAgent#paceOnce()}), so each check
 * sees the state one look left.
 */
@Tag("cluster")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CatchUpPacingClusterTest {

    private static final String TOPIC = "paced";
    private static final String OTHER = "reassigned-elsewhere";
    /** A topic whose 12 entries for broker 2 make a list longer than {@link #SHORT_LIMIT}. */
    private static final String WIDE = "wide";
    /** A limit on a list's length that 12 entries exceed, standing for Kafka's 32,767 characters on a wide topic. */
    private static final int SHORT_LIMIT = 30;

    private static final int PARTITIONS = 12;
    private static final long RATE = 300_000;
    /** Someone else's reassignment throttle: a per-broker rate on broker 0 and an entry on another topic. */
    private static final long FOREIGN_RATE = 7_000_000;

    private static final String FOREIGN_ENTRY = "0:0";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static EmbeddedKafkaCluster cluster;
    private static ReplicationThrottles throttles;
    private final List<PacerAgent> agents = new ArrayList<>();

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = EmbeddedKafkaCluster.builder()
                .brokers(3)
                // Small fetches and a short quota window, so that a 300 kB/s throttle spreads the catch-up over
                // seconds instead of one fetch taking the whole backlog.
                .serverProperty("replica.fetch.max.bytes", "16384")
                .serverProperty("replica.fetch.response.max.bytes", "65536")
                .serverProperty("replication.quota.window.num", "2")
                .build()
                .start();
        cluster.createTopic(TOPIC, PARTITIONS, 3);
        cluster.createTopic(OTHER, 3, 3);
        cluster.createTopic(WIDE, PARTITIONS, 3);
        throttles = new ReplicationThrottles(cluster.admin(), TIMEOUT);
        throttles
                .change()
                .setRate(ThrottleSide.FOLLOWER, BrokerScope.broker(0), FOREIGN_RATE)
                .setReplicas(ThrottleSide.FOLLOWER, OTHER, ThrottledReplicas.parse(FOREIGN_ENTRY))
                .apply();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @AfterEach
    void cleanUp() throws Exception {
        agents.forEach(PacerAgent::close);
        if (!cluster.isRunning(2)) {
            cluster.startBroker(2);
        }
        awaitAllInIsr();
    }

    private PacerAgent agent(String pacing, LedgerStore ledger) {
        return agent(pacing, ledger, 1L << 20);
    }

    private PacerAgent agent(String pacing, LedgerStore ledger, long unthrottledLagBytes) {
        PacerConfig config = PacerConfig.fromMap(Map.of(
                "leader.imbalance.catch.up.pacing",
                pacing,
                "leader.imbalance.catch.up.pacing.rate.bytes",
                Long.toString(RATE),
                "leader.imbalance.catch.up.pacing.min.rate.bytes",
                Long.toString(RATE),
                "leader.imbalance.catch.up.pacing.unthrottled.lag.bytes",
                Long.toString(unthrottledLagBytes),
                // Restarted within replica.lag.time.max.ms: these tests are about the throttle itself, set at once.
                "leader.imbalance.catch.up.pacing.lag.time.max.ms",
                "0"));
        PacerAgent a = PacerAgent.builder(cluster.admin())
                .basePolicy(config)
                .ledgerStore(ledger)
                .requestTimeout(TIMEOUT)
                .build();
        agents.add(a);
        return a;
    }

    @Test
    void recoveringBroker_onlyItsOutOfSyncReplicasAreThrottled_untilItIsBackInEveryIsr_thenNothingOfPacingsIsLeft()
            throws Exception {
        // Every replica of broker 2 here lacks under 1 MiB: with no replica left out for being close, the list
        // follows the ISR alone.
        PacerAgent agent = agent("static", LedgerStore.inMemory(), 0);
        cluster.stopBroker(2);
        RecoveryScenario.writeBacklog(cluster, TOPIC, PARTITIONS, 6_000_000);

        PacingReport down = agent.paceOnce();
        assertThat(down.problem()).isEmpty();
        eventually(
                s -> {
                    assertThat(rate(
                                    s,
                                    BrokerScope.clusterDefault(),
                                    ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG))
                            .as("broker 2 is down: its rate can only be the cluster default")
                            .hasValue(RATE);
                    assertThat(entries(s, TOPIC))
                            .as("every replica of broker 2, and only those")
                            .isEqualTo(allReplicasOf(2));
                    assertForeignThrottleUntouched(s);
                },
                Set.of(0, 1));

        cluster.startBroker(2);
        boolean sawPartialList = false;
        boolean sawPerBrokerRate = false;
        boolean sawDefaultReplaced = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        // The two readings before this one: a list can show what a look decided on a reading that old.
        Deque<Set<String>> recent = new ArrayDeque<>(List.of(allReplicasOf(2), allReplicasOf(2)));
        while (System.nanoTime() < deadline) {
            PacingReport r = agent.paceOnce();
            assertThat(r.problem()).isEmpty();
            Set<String> outOfSync = outOfSyncReplicasOf(2);
            ThrottleSettings now = describe(Set.of(0, 1, 2));
            Set<String> listed = entries(now, TOPIC);
            assertForeignThrottleUntouched(now);
            if (outOfSync.isEmpty() && listed.isEmpty()) {
                break;
            }
            // The list follows the ISR with the lag of one look: never an in-sync replica it did not just see out.
            if (!listed.isEmpty() && listed.size() < PARTITIONS) {
                sawPartialList = true;
            }
            // Every entry is a replica of broker 2 that this reading or one of the two before saw out of its ISR.
            Set<String> mayList = new TreeSet<>(outOfSync);
            recent.forEach(mayList::addAll);
            assertThat(listed).isSubsetOf(mayList);
            recent.removeFirst();
            recent.addLast(outOfSync);
            if (rate(now, BrokerScope.broker(2), ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG)
                    .isPresent()) {
                sawPerBrokerRate = true;
                // The two changes reach the brokers through the metadata log, each broker at its own pace: a look
                // can catch the new rate before the default's removal; one later look must see the default gone.
                if (rate(now, BrokerScope.clusterDefault(), ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG)
                        .isEmpty()) {
                    sawDefaultReplaced = true;
                }
            }
            Thread.sleep(500);
        }
        agent.paceOnce();
        assertThat(sawPerBrokerRate)
                .as("broker 2 got a rate of its own once it was up")
                .isTrue();
        assertThat(sawDefaultReplaced)
                .as("once broker 2 is up, its own rate replaces the default")
                .isTrue();
        assertThat(sawPartialList)
                .as("replicas left the list as they rejoined their ISR")
                .isTrue();
        eventually(
                after -> {
                    assertThat(after.replicas(ThrottleSide.FOLLOWER, TOPIC))
                            .as("the list was absent before: deleted again")
                            .isEmpty();
                    assertThat(rate(
                                    after,
                                    BrokerScope.clusterDefault(),
                                    ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG))
                            .isEmpty();
                    assertThat(rate(after, BrokerScope.broker(2), ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG))
                            .isEmpty();
                    assertForeignThrottleExactly(after);
                },
                Set.of(0, 1, 2));
    }

    @Test
    void replicasWithinAFetchOfTheirLeader_areListedWhileTheBrokerIsDown_andLeftOutOnceItIsUp() throws Exception {
        PacerAgent agent = agent("static", LedgerStore.inMemory());
        cluster.stopBroker(2);
        // 6 MB over 12 partitions, weighted 1 to 12: the largest share, 923 KB, is under the default 1 MiB.
        RecoveryScenario.writeBacklog(cluster, TOPIC, PARTITIONS, 6_000_000);

        assertThat(agent.paceOnce().problem()).isEmpty();
        eventually(
                s -> assertThat(entries(s, TOPIC))
                        .as("down: its distances are unknown, so every replica is listed")
                        .isEqualTo(allReplicasOf(2)),
                Set.of(0, 1));

        cluster.startBroker(2);
        PacingReport upAndBehind = null;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (upAndBehind == null && System.nanoTime() < deadline) {
            PacingReport r = agent.paceOnce();
            assertThat(r.problem()).isEmpty();
            if (r.brokers().stream()
                    .anyMatch(b -> b.broker() == 2 && b.progress().bytesBehind().orElse(0) > 0)) {
                upAndBehind = r;
            }
            Thread.sleep(300);
        }
        assertThat(upAndBehind)
                .as("a look saw broker 2 up, its distances known, still behind")
                .isNotNull();
        assertThat(upAndBehind.notes())
                .as("/status says which replicas were left out, and why")
                .anyMatch(n -> n.startsWith("broker 2: ") && n.contains("left unthrottled"));
        eventually(
                s -> assertThat(entries(s, TOPIC))
                        .as("every replica is within 1 MiB of its leader: none listed")
                        .isEmpty(),
                Set.of(0, 1, 2));
        await().atMost(Duration.ofSeconds(60))
                .until(() -> outOfSyncReplicasOf(2).isEmpty());
        agent.paceOnce();
        eventually(
                after -> {
                    assertThat(after.replicas(ThrottleSide.FOLLOWER, TOPIC))
                            .as("the list was absent before: deleted again")
                            .isEmpty();
                    assertThat(rate(after, BrokerScope.broker(2), ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG))
                            .isEmpty();
                },
                Set.of(0, 1, 2));
    }

    @Test
    void steadyCluster_looksReadTheBrokersOnly_andABrokerStoppingBringsAFullLookThatPacesIt() throws Exception {
        PacerAgent agent = agent("static", LedgerStore.inMemory());

        PacingReport first = agent.paceOnce();
        assertThat(first.problem()).isEmpty();
        assertThat(first.quiet()).as("the first look reads every partition").isFalse();
        assertThat(first.brokers()).as("nothing to pace").isEmpty();
        PacingReport second = agent.paceOnce();
        assertThat(second.quiet())
                .as("nothing was out of sync and no broker changed: the brokers only")
                .isTrue();
        assertThat(second.problem()).isEmpty();
        assertThat(second.changes()).isEmpty();

        cluster.stopBroker(2);
        // Well inside the quiet period's bound of a full read every 30 s: only broker 2's change can end it. The full
        // look it brings may ask a broker that has not learned of the stop yet and pace nothing; a later one paces it.
        List<PacingReport> looks = new ArrayList<>();
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    PacingReport r = agent.paceOnce();
                    looks.add(r);
                    assertThat(r.problem()).isEmpty();
                    return !r.quiet() && !r.brokers().isEmpty();
                });
        PacingReport full = looks.get(looks.size() - 1);
        assertThat(full.brokers()).extracting(BrokerPacing::broker).containsExactly(2);
        eventually(
                s -> assertThat(rate(
                                s,
                                BrokerScope.clusterDefault(),
                                ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG))
                        .as("broker 2 is down: the default")
                        .hasValue(RATE),
                Set.of(0, 1));
    }

    @Test
    void instanceThatDiesMidRecovery_isCleanedUpAfterByTheNextOne_fromTheStateTopicsLedger() throws Exception {
        CompactedTopic stateA =
                new CompactedTopic(cluster.admin(), cluster.adminClientProperties(), "pacing-ledger-test", TIMEOUT);
        stateA.ensureExists();
        PacerAgent first = agent("static", new TopicLedgerStore(stateA));
        cluster.stopBroker(2);
        RecoveryScenario.writeBacklog(cluster, TOPIC, PARTITIONS, 2_000_000);
        first.paceOnce();
        eventually(s -> assertThat(entries(s, TOPIC)).isEqualTo(allReplicasOf(2)), Set.of(0, 1));
        // kill -9: the first instance never restores (it is dropped without close), and its memory is gone.
        agents.remove(first);

        CompactedTopic stateB =
                new CompactedTopic(cluster.admin(), cluster.adminClientProperties(), "pacing-ledger-test", TIMEOUT);
        PacerAgent next = agent("off", new TopicLedgerStore(stateB));
        PacingReport r = next.paceOnce();

        assertThat(r.problem()).isEmpty();
        assertThat(r.changes()).isNotEmpty();
        eventually(
                after -> {
                    assertThat(after.replicas(ThrottleSide.FOLLOWER, TOPIC)).isEmpty();
                    assertThat(rate(
                                    after,
                                    BrokerScope.clusterDefault(),
                                    ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG))
                            .isEmpty();
                    assertForeignThrottleExactly(after);
                },
                Set.of(0, 1));
        assertThat(new TopicLedgerStore(stateB).load())
                .as("the ledger is empty once all is restored")
                .isEmpty();
        stateA.close();
        stateB.close();
    }

    @Test
    void someoneElsesClusterDefaultRate_isUsedAndNeverChanged() throws Exception {
        throttles
                .change()
                .setRate(ThrottleSide.FOLLOWER, BrokerScope.clusterDefault(), 9_000_000)
                .apply();
        try {
            PacerAgent agent = agent("static", LedgerStore.inMemory());
            cluster.stopBroker(2);
            // The broker the agent asks may not know of the stop yet: look until one paces broker 2.
            lookUntil(() -> assertThat(agent.paceOnce().notes())
                    .anySatisfy(n -> assertThat(n)
                            .contains("the cluster-default follower rate is 8.6 MiB/s,"
                                    + " set by someone else: pacing uses it and does not change it")));
            eventually(
                    s -> assertThat(rate(
                                    s,
                                    BrokerScope.clusterDefault(),
                                    ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG))
                            .hasValue(9_000_000L),
                    Set.of(0, 1));
            agent.close();
            eventually(
                    s -> {
                        assertThat(rate(
                                        s,
                                        BrokerScope.clusterDefault(),
                                        ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG))
                                .as("still theirs after pacing stopped")
                                .hasValue(9_000_000L);
                        assertThat(s.replicas(ThrottleSide.FOLLOWER, TOPIC))
                                .as("pacing's own entries removed")
                                .isEmpty();
                    },
                    Set.of(0, 1));
        } finally {
            throttles
                    .change()
                    .removeRate(ThrottleSide.FOLLOWER, BrokerScope.clusterDefault())
                    .apply();
        }
    }

    @Test
    void canary_measuresItsWritesWhereABrokerIsAnInSyncFollower_andClosesPromptlyWhileSending() throws Exception {
        Canary canary = new Canary(
                cluster.admin(),
                cluster.adminClientProperties(),
                "_leader-pacer-canary-test",
                TIMEOUT,
                System::currentTimeMillis);
        try {
            startThroughTheNewTopicRace(canary);
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        canary.refresh(true);
                        return canary.apply(2).isPresent();
                    });

            // All in sync: the last window's P99 over the steady windows' median is near 1 (noise allowed).
            assertThat(canary.apply(2).getAsDouble()).isStrictlyBetween(0.2, 5.0);
            assertThat(canary.steadyP99()).isPositive();
        } finally {
            // Closing while sends complete must not wait on the canary's own lock (it once deadlocked here).
            Assertions.assertTimeoutPreemptively(Duration.ofSeconds(20), canary::close);
        }
    }

    /**
     * A topic just created is not yet on every broker, and the canary's first look at it can fail; Kafka produces
     * that race only by chance, so the first describe is made to fail here, on a real cluster. The next start must
     * start the canary whole: it once kept the producer of the failed call and never sent.
     */
    @Test
    void canaryWhoseFirstLookFails_startsWhole_atTheNextCall() throws Exception {
        AtomicBoolean failOnce = new AtomicBoolean(true);
        Admin real = cluster.admin();
        Admin flaky = (Admin) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {Admin.class}, (proxy, method, args) -> {
                    if (method.getName().equals("describeTopics") && failOnce.getAndSet(false)) {
                        throw new UnknownTopicOrPartitionException("This server does not host this topic-partition.");
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        Canary canary = new Canary(
                flaky,
                cluster.adminClientProperties(),
                "_leader-pacer-canary-race",
                TIMEOUT,
                System::currentTimeMillis);
        try {
            assertThatThrownBy(() -> canary.start(List.of(0, 1, 2)))
                    .isInstanceOf(UnknownTopicOrPartitionException.class);

            startThroughTheNewTopicRace(canary);
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        canary.refresh(true);
                        return canary.apply(2).isPresent();
                    });
        } finally {
            Assertions.assertTimeoutPreemptively(Duration.ofSeconds(20), canary::close);
        }
    }

    /**
     * A topic just created is not on every broker at once, so a canary's look may fail with an error Kafka calls
     * retriable (UnknownTopicOrPartition, wrapped in an ExecutionException), as the agent's may: it starts again at
     * the next call, and so does this test. Only retriable errors are retried; any other failure fails the test.
     */
    private static void startThroughTheNewTopicRace(Canary canary) {
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .ignoreExceptionsMatching(
                        e -> e instanceof ExecutionException && e.getCause() instanceof RetriableException)
                .until(() -> {
                    canary.start(List.of(0, 1, 2));
                    return true;
                });
    }

    /**
     * The reassignment's rate is unchanged and its entry is still listed; pacing may add broker 2's own entries
     * beside it (broker 2 hosts that topic too), never another broker's.
     */
    @Test
    void someoneChangesTheRatePacingSet_pacingStandsBackFromIt_andNeverRestoresOverIt() throws Exception {
        PacerAgent agent = agent("static", LedgerStore.inMemory());
        cluster.stopBroker(2);
        paceUntil(
                agent,
                s -> assertThat(rate(
                                s,
                                BrokerScope.clusterDefault(),
                                ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG))
                        .hasValue(RATE),
                Set.of(0, 1));
        try {
            // An operator lowers the default while broker 2 is down: that value is theirs now.
            throttles
                    .change()
                    .setRate(ThrottleSide.FOLLOWER, BrokerScope.clusterDefault(), 100_000)
                    .apply();
            eventually(
                    s -> assertThat(rate(
                                    s,
                                    BrokerScope.clusterDefault(),
                                    ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG))
                            .hasValue(100_000L),
                    Set.of(0, 1));
            // The broker the agent asks may learn of the change after the ones the test asked: look until one sees it.
            lookUntil(() -> assertThat(agent.paceOnce().notes())
                    .anySatisfy(n -> assertThat(n)
                            .isEqualTo("the cluster-default follower rate was changed"
                                    + " by someone else to 97.7 KiB/s: pacing stands back from it")));
            agent.close();
            eventually(
                    s -> {
                        assertThat(rate(
                                        s,
                                        BrokerScope.clusterDefault(),
                                        ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG))
                                .as("theirs, kept after pacing stopped")
                                .hasValue(100_000L);
                        assertThat(s.replicas(ThrottleSide.FOLLOWER, TOPIC))
                                .as("pacing's own entries removed")
                                .isEmpty();
                    },
                    Set.of(0, 1));
        } finally {
            throttles
                    .change()
                    .removeRate(ThrottleSide.FOLLOWER, BrokerScope.clusterDefault())
                    .apply();
        }
    }

    @Test
    void listLongerThanKafkaCarries_withNoDefaultRate_becomesStar_andTheNextInstanceRestoresTheListFoundExactly()
            throws Exception {
        throttles
                .change()
                .setReplicas(ThrottleSide.FOLLOWER, WIDE, ThrottledReplicas.parse("0:0"))
                .apply();
        eventuallyWide(s -> assertThat(entries(s, WIDE)).containsExactly("0:0"));
        InMemoryLedgerStore store = new InMemoryLedgerStore();
        try {
            ThrottleReconciler.Outcome o = reconciler(store)
                    .reconcile(
                            new ThrottlePlan(Map.of(2, RATE), OptionalLong.empty(), Map.of(WIDE, replicasOf(2))),
                            Set.of(0, 1, 2));

            assertThat(o.changes()).anyMatch(c -> c.startsWith(WIDE + " follower list -> *"));
            eventuallyWide(s -> {
                assertThat(s.replicas(ThrottleSide.FOLLOWER, WIDE)).hasValue(ThrottledReplicas.ALL);
                assertThat(rate(s, BrokerScope.broker(2), ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG))
                        .hasValue(RATE);
            });

            // A new instance (after a kill -9: nothing but the ledger in the store) restores what was found.
            ThrottleReconciler next = reconciler(store);
            next.restoreAll(Set.of(0, 1, 2));
            assertThat(next.ownsNothing()).isTrue();
            eventuallyWide(s -> {
                assertThat(s.replicas(ThrottleSide.FOLLOWER, WIDE))
                        .map(ThrottledReplicas::configValue)
                        .hasValue("0:0");
                assertThat(rate(s, BrokerScope.broker(2), ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG))
                        .isEmpty();
            });
        } finally {
            clearWide();
        }
    }

    @Test
    void listLongerThanKafkaCarries_whileADefaultRateIsInForce_listsTheEntriesThatFit_thenStarOnceTheBrokerIsUp()
            throws Exception {
        throttles
                .change()
                .setReplicas(ThrottleSide.FOLLOWER, WIDE, ThrottledReplicas.parse("0:0"))
                .apply();
        eventuallyWide(s -> assertThat(entries(s, WIDE)).containsExactly("0:0"));
        ThrottleReconciler reconciler = reconciler(new InMemoryLedgerStore());
        try {
            ThrottleReconciler.Outcome down = reconciler.reconcile(
                    new ThrottlePlan(Map.of(), OptionalLong.of(RATE), Map.of(WIDE, replicasOf(2))), Set.of(0, 1));

            // "0:0" and then ",0:2" ... ",5:2": 27 characters; ",6:2" would make 31.
            assertThat(down.notes()).anyMatch(n -> n.startsWith("topic " + WIDE + ": 6 of 12 follower entries listed"));
            eventuallyWide(s -> assertThat(entries(s, WIDE))
                    .containsExactlyInAnyOrder("0:0", "0:2", "1:2", "2:2", "3:2", "4:2", "5:2"));

            reconciler.reconcile(
                    new ThrottlePlan(Map.of(2, RATE), OptionalLong.empty(), Map.of(WIDE, replicasOf(2))),
                    Set.of(0, 1, 2));
            eventuallyWide(s -> {
                assertThat(s.replicas(ThrottleSide.FOLLOWER, WIDE)).hasValue(ThrottledReplicas.ALL);
                assertThat(rate(
                                s,
                                BrokerScope.clusterDefault(),
                                ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG))
                        .isEmpty();
            });

            reconciler.restoreAll(Set.of(0, 1, 2));
            assertThat(reconciler.ownsNothing()).isTrue();
            eventuallyWide(s -> assertThat(s.replicas(ThrottleSide.FOLLOWER, WIDE))
                    .map(ThrottledReplicas::configValue)
                    .hasValue("0:0"));
        } finally {
            clearWide();
        }
    }

    @Test
    void someoneChangesTheStarPacingSet_pacingStandsBack_andLeavesTheirList() throws Exception {
        ThrottleReconciler reconciler = reconciler(new InMemoryLedgerStore());
        try {
            ThrottlePlan plan = new ThrottlePlan(Map.of(2, RATE), OptionalLong.empty(), Map.of(WIDE, replicasOf(2)));
            reconciler.reconcile(plan, Set.of(0, 1, 2));
            eventuallyWide(
                    s -> assertThat(s.replicas(ThrottleSide.FOLLOWER, WIDE)).hasValue(ThrottledReplicas.ALL));
            throttles
                    .change()
                    .setReplicas(ThrottleSide.FOLLOWER, WIDE, ThrottledReplicas.parse("1:1"))
                    .apply();
            eventuallyWide(s -> assertThat(entries(s, WIDE)).containsExactly("1:1"));

            // The broker the reconciler asks may learn of the change after the one the test asked.
            lookUntil(() -> assertThat(
                            reconciler.reconcile(plan, Set.of(0, 1, 2)).notes())
                    .anyMatch(n -> n.contains("someone changed the follower list pacing set to * (now 1:1)")));
            reconciler.restoreAll(Set.of(0, 1, 2));
            assertThat(reconciler.ownsNothing()).isTrue();
            eventuallyWide(s -> assertThat(entries(s, WIDE)).containsExactly("1:1"));
        } finally {
            clearWide();
        }
    }

    private static void clearWide() throws Exception {
        throttles
                .change()
                .clearReplicas(ThrottleSide.FOLLOWER, WIDE)
                .removeRate(ThrottleSide.FOLLOWER, BrokerScope.broker(2))
                .removeRate(ThrottleSide.FOLLOWER, BrokerScope.clusterDefault())
                .apply();
    }

    /** A reconciler with a fresh view of {@code store}, limited to {@link #SHORT_LIMIT} characters per list. */
    private static ThrottleReconciler reconciler(LedgerStore store) throws Exception {
        ThrottleLedger ledger = new ThrottleLedger(store);
        ledger.load();
        ThrottleReconciler r = new ThrottleReconciler(
                throttles,
                ledger,
                ActionGuard.NONE,
                new ThrottleReconciler.Limits(
                        SHORT_LIMIT, ThrottleReconciler.Limits.KAFKA_MAX_RECORDS_PER_REQUEST, 200),
                Time.SYSTEM);
        r.load();
        return r;
    }

    private static Set<ThrottledReplicas.Replica> replicasOf(int broker) {
        Set<ThrottledReplicas.Replica> out = ThrottleLedger.sortedSet(List.of());
        for (int p = 0; p < PARTITIONS; p++) {
            out.add(new ThrottledReplicas.Replica(p, broker));
        }
        return out;
    }

    private static void eventuallyWide(ThrowingConsumer<ThrottleSettings> check) {
        await().atMost(Duration.ofSeconds(15))
                .pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> check.accept(throttles.describe(
                        List.of(BrokerScope.clusterDefault(), BrokerScope.broker(2)), List.of(WIDE))));
    }

    private static void assertForeignThrottleUntouched(ThrottleSettings s) {
        assertThat(rate(s, BrokerScope.broker(0), ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG))
                .hasValue(FOREIGN_RATE);
        assertThat(entries(s, OTHER))
                .contains(FOREIGN_ENTRY)
                .allSatisfy(e -> assertThat(e.equals(FOREIGN_ENTRY) || e.endsWith(":2"))
                        .as(e)
                        .isTrue());
    }

    /** Once pacing is done: the reassignment's throttle exactly as it was set. */
    private static void assertForeignThrottleExactly(ThrottleSettings s) {
        assertThat(rate(s, BrokerScope.broker(0), ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG))
                .hasValue(FOREIGN_RATE);
        assertThat(s.replicas(ThrottleSide.FOLLOWER, OTHER))
                .map(ThrottledReplicas::configValue)
                .hasValue(FOREIGN_ENTRY);
    }

    /**
     * The throttle configs once the brokers have them: a change is answered when the controller has committed it, and
     * a broker describes it once the metadata reaches it, a moment later.
     */
    private static void eventually(ThrowingConsumer<ThrottleSettings> check, Set<Integer> brokers) {
        await().atMost(Duration.ofSeconds(15))
                .pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> check.accept(describe(brokers)));
    }

    /**
     * Looks until the check holds, each look without a problem: right after a broker stops, the broker the agent asks
     * may not know it yet, and a look then finds nothing to pace.
     */
    private static void paceUntil(PacerAgent agent, ThrowingConsumer<ThrottleSettings> check, Set<Integer> brokers) {
        lookUntil(() -> {
            assertThat(agent.paceOnce().problem()).isEmpty();
            check.accept(describe(brokers));
        });
    }

    /**
     * Repeats a look until its check holds: a change someone made is committed when the controller answers, but each
     * broker describes it only once the metadata reaches it, so the broker a look asks may still show the old value.
     */
    private static void lookUntil(ThrowingRunnable look) {
        await().atMost(Duration.ofSeconds(15))
                .pollInterval(Duration.ofMillis(200))
                .untilAsserted(look);
    }

    private static ThrottleSettings describe(Set<Integer> brokers) throws Exception {
        List<BrokerScope> scopes = new ArrayList<>();
        scopes.add(BrokerScope.clusterDefault());
        brokers.forEach(b -> scopes.add(BrokerScope.broker(b)));
        return throttles.describe(scopes, List.of(TOPIC, OTHER));
    }

    private static Optional<Long> rate(ThrottleSettings s, BrokerScope scope, ConfigEntry.ConfigSource source) {
        return s.rate(ThrottleSide.FOLLOWER, scope)
                .filter(r -> r.source() == source)
                .map(ThrottleRate::bytesPerSecond);
    }

    private static Set<String> entries(ThrottleSettings s, String topic) {
        return s.replicas(ThrottleSide.FOLLOWER, topic)
                .map(r -> {
                    Set<String> out = new TreeSet<>();
                    r.replicas().forEach(x -> out.add(x.configValue()));
                    return out;
                })
                .orElse(Set.of());
    }

    private static Set<String> allReplicasOf(int broker) {
        Set<String> out = new TreeSet<>();
        for (int p = 0; p < PARTITIONS; p++) {
            out.add(p + ":" + broker);
        }
        return out;
    }

    private static Set<String> outOfSyncReplicasOf(int broker) throws Exception {
        Set<String> out = new TreeSet<>();
        for (TopicPartitionInfo p : RecoveryScenario.describe(cluster.admin(), TOPIC)) {
            if (p.isr().stream().noneMatch(n -> n.id() == broker)) {
                out.add(p.partition() + ":" + broker);
            }
        }
        return out;
    }

    private static void awaitAllInIsr() {
        await().atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    Map<String, TopicDescription> d = cluster.admin()
                            .describeTopics(List.of(TOPIC))
                            .allTopicNames()
                            .get(10, TimeUnit.SECONDS);
                    return d.get(TOPIC).partitions().stream()
                            .allMatch(p -> p.isr().size() == 3);
                });
    }
}
