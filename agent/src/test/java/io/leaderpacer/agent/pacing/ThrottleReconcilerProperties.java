package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.SteppedTime;
import io.leaderpacer.agent.core.ActionGuard;
import io.leaderpacer.agent.core.NotActiveException;
import io.leaderpacer.agent.pacing.KafkaConfigModel.Fault;
import io.leaderpacer.agent.throttle.BrokerScope;
import io.leaderpacer.agent.throttle.ThrottleSide;
import io.leaderpacer.agent.throttle.ThrottledReplicas.Replica;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.kafka.common.config.ConfigResource;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reconciler's promise over random sequences against a model of Kafka's config semantics with faults a cluster
 * cannot produce on cue: whatever is refused, unconfirmed, landed late, read back stale, or cut short by a
 * {@code kill -9} before or after a request, and whichever instance goes on afterwards, a successor restores every
 * value someone else set exactly, character for character, and leaves nothing of pacing's; and no request is larger
 * than the limit. With reads that lag and requests that land late, an empty list may be left where there was none
 * (it throttles nothing); without them, everything is exact.
 */
class ThrottleReconcilerProperties {

    /** Short lists (a few entries make a {@code *}) and small requests (a look takes several). */
    private static final ThrottleReconciler.Limits SMALL = new ThrottleReconciler.Limits(24, 3, 4);

    private static final List<String> TOPICS = List.of("t0", "t1", "t2", "t3");
    private static final Set<Integer> ALL_UP = Set.of(0, 1, 2);

    /** One look: its plan, the brokers up, the faults of its requests, a guard refusal, a topic deleted before it. */
    record Step(
            ThrottlePlan plan,
            Set<Integer> up,
            List<Fault> faults,
            boolean deposed,
            Optional<String> deleted,
            boolean staleRead) {}

    /** Someone else's values before pacing starts, then the looks. */
    record Scenario(Map<ConfigResource, Map<String, String>> foreign, List<Step> steps) {}

    /** A guard an instance can be deposed by. */
    private static final class Guard implements ActionGuard {
        boolean deposed;

        @Override
        public void checkActive(String action) {
            if (deposed) {
                throw new NotActiveException("deposed; " + action + " not sent");
            }
        }
    }

    private static ThrottleReconciler instance(KafkaConfigModel kafka, LedgerStore store, Guard guard)
            throws Exception {
        ThrottleLedger ledger = new ThrottleLedger(store);
        ledger.load();
        ThrottleReconciler r = new ThrottleReconciler(kafka, ledger, guard, SMALL, new SteppedTime());
        r.load();
        return r;
    }

    @Property(tries = 600)
    void whateverFails_aSuccessorRestoresEveryForeignValueExactly_andLeavesNothingOfPacings(
            @ForAll("scenarios") Scenario sc) throws Exception {
        KafkaConfigModel kafka = new KafkaConfigModel();
        sc.foreign().forEach((r, m) -> m.forEach((k, v) -> kafka.put(r, k, v)));
        LedgerStore store = new InMemoryLedgerStore();
        Guard guard = new Guard();
        ThrottleReconciler current = instance(kafka, store, guard);
        Set<String> deleted = new HashSet<>();
        for (Step s : sc.steps()) {
            kafka.up(s.up());
            s.faults().forEach(kafka::fault);
            s.deleted().ifPresent(t -> {
                kafka.deleteTopic(t);
                deleted.add(t);
            });
            guard.deposed = s.deposed();
            if (s.staleRead()) {
                kafka.staleNextRead();
            }
            try {
                current.reconcile(s.plan(), s.up());
            } catch (KafkaConfigModel.Crash killed) {
                current = instance(kafka, store, guard);
            } catch (NotActiveException deposed) {
                // Deposed: it sent and recorded nothing; another instance (the next step's) goes on.
                current = instance(kafka, store, guard);
            }
            kafka.clearFaults();
        }
        kafka.up(ALL_UP);
        guard.deposed = false;
        ThrottleReconciler successor = instance(kafka, store, guard);
        for (int i = 0; i < 3 && !successor.ownsNothing(); i++) {
            successor.restoreAll(ALL_UP);
        }
        Map<ConfigResource, Map<String, String>> expected = new LinkedHashMap<>(sc.foreign());
        deleted.forEach(t -> expected.remove(KafkaConfigModel.topic(t)));
        assertThat(successor.ownsNothing()).as("the ledger is empty").isTrue();
        boolean lagging =
                sc.steps().stream().anyMatch(s -> s.staleRead() || s.faults().contains(Fault.LATE));
        if (lagging) {
            // A read that lags a change, with a request that lands late, can leave an empty list where there was
            // none (Kafka's SUBTRACT of a list's last entries leaves an empty value): it throttles nothing. Every other
            // value is exact, and no value of pacing's is left.
            assertThat(withoutEmptyLists(kafka.values(), expected)).isEqualTo(expected);
        } else {
            assertThat(kafka.values()).isEqualTo(expected);
        }
        assertThat(kafka.largestRequest()).isLessThanOrEqualTo(SMALL.maxOpsPerRequest());
    }

    /** The values with the empty lists removed that were not there before. */
    private static Map<ConfigResource, Map<String, String>> withoutEmptyLists(
            Map<ConfigResource, Map<String, String>> now, Map<ConfigResource, Map<String, String>> before) {
        Map<ConfigResource, Map<String, String>> out = new LinkedHashMap<>();
        now.forEach((r, m) -> {
            Map<String, String> kept = new TreeMap<>(m);
            kept.entrySet()
                    .removeIf(e -> e.getValue().isEmpty()
                            && !before.getOrDefault(r, Map.of()).containsKey(e.getKey()));
            if (!kept.isEmpty()) {
                out.put(r, kept);
            }
        });
        return out;
    }

    @Provide
    Arbitrary<Scenario> scenarios() {
        return Combinators.combine(foreign(), step().list().ofMinSize(1).ofMaxSize(12))
                .as(Scenario::new);
    }

    private static Arbitrary<Map<ConfigResource, Map<String, String>>> foreign() {
        Arbitrary<Optional<String>> defaultRate =
                Arbitraries.of(Optional.empty(), Optional.empty(), Optional.of("9000000"));
        Arbitrary<Optional<String>> broker0 = Arbitraries.of(Optional.empty(), Optional.of("7000000"));
        Arbitrary<Optional<String>> leader1 = Arbitraries.of(Optional.empty(), Optional.of("5000000"));
        Arbitrary<List<String>> lists = Arbitraries.of("", "0:0", "1:1, 0:0", "*", "2:2,3:0", "0:1")
                .list()
                .ofSize(TOPICS.size());
        Arbitrary<List<String>> leaderLists =
                Arbitraries.of("", "0:1", "*", "4:2, 5:0").list().ofSize(TOPICS.size());
        return Combinators.combine(defaultRate, broker0, leader1, lists, leaderLists)
                .as((d, b0, l1, ls, lls) -> {
                    Map<ConfigResource, Map<String, String>> m = new LinkedHashMap<>();
                    d.ifPresent(
                            v -> put(m, BrokerScope.clusterDefault().resource(), ThrottleSide.FOLLOWER.rateKey(), v));
                    b0.ifPresent(v -> put(m, BrokerScope.broker(0).resource(), ThrottleSide.FOLLOWER.rateKey(), v));
                    l1.ifPresent(v -> put(m, BrokerScope.broker(1).resource(), ThrottleSide.LEADER.rateKey(), v));
                    for (int i = 0; i < TOPICS.size(); i++) {
                        if (!ls.get(i).isEmpty()) {
                            put(
                                    m,
                                    KafkaConfigModel.topic(TOPICS.get(i)),
                                    ThrottleSide.FOLLOWER.replicasKey(),
                                    ls.get(i));
                        }
                        if (!lls.get(i).isEmpty()) {
                            put(
                                    m,
                                    KafkaConfigModel.topic(TOPICS.get(i)),
                                    ThrottleSide.LEADER.replicasKey(),
                                    lls.get(i));
                        }
                    }
                    return m;
                });
    }

    private static void put(Map<ConfigResource, Map<String, String>> m, ConfigResource r, String k, String v) {
        m.computeIfAbsent(r, x -> new TreeMap<>()).put(k, v);
    }

    private static Arbitrary<Step> step() {
        Arbitrary<Map<Integer, Long>> rates = Arbitraries.subsetOf(0, 1, 2)
                .flatMap(bs -> Arbitraries.of(1_000_000L, 2_000_000L)
                        .list()
                        .ofSize(bs.size())
                        .map(rs -> {
                            Map<Integer, Long> m = new TreeMap<>();
                            int i = 0;
                            for (int b : bs) {
                                m.put(b, rs.get(i++));
                            }
                            return m;
                        }));
        Arbitrary<OptionalLong> defaultRate = Arbitraries.of(OptionalLong.empty(), OptionalLong.of(3_000_000L));
        Arbitrary<Set<Replica>> replicas = Combinators.combine(
                        Arbitraries.integers().between(0, 5),
                        Arbitraries.integers().between(1, 2))
                .as(Replica::new)
                .set()
                .ofMaxSize(8);
        Arbitrary<Map<String, Set<Replica>>> entries = replicas.list()
                .ofSize(TOPICS.size())
                .map(l -> {
                    Map<String, Set<Replica>> m = new TreeMap<>();
                    for (int i = 0; i < TOPICS.size(); i++) {
                        if (!l.get(i).isEmpty()) {
                            m.put(TOPICS.get(i), l.get(i));
                        }
                    }
                    return m;
                });
        Arbitrary<Map<Integer, Long>> leaderRates = Arbitraries.subsetOf(0, 1, 2)
                .map(bs -> {
                    Map<Integer, Long> m = new TreeMap<>();
                    bs.forEach(b -> m.put(b, 4_000_000L));
                    return m;
                });
        Arbitrary<Set<Replica>> leaderReplicas = Combinators.combine(
                        Arbitraries.integers().between(0, 5),
                        Arbitraries.integers().between(0, 2))
                .as(Replica::new)
                .set()
                .ofMaxSize(6);
        Arbitrary<Map<String, Set<Replica>>> leaderEntries = leaderReplicas
                .list()
                .ofSize(TOPICS.size())
                .map(l -> {
                    Map<String, Set<Replica>> m = new TreeMap<>();
                    for (int i = 0; i < TOPICS.size(); i++) {
                        if (!l.get(i).isEmpty()) {
                            m.put(TOPICS.get(i), l.get(i));
                        }
                    }
                    return m;
                });
        Arbitrary<ThrottlePlan.LeaderSide> leader = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(1, Arbitraries.just(ThrottlePlan.LeaderSide.NONE)),
                net.jqwik.api.Tuple.of(
                        2, Combinators.combine(leaderRates, leaderEntries).as(ThrottlePlan.LeaderSide::new)));
        Arbitrary<ThrottlePlan> plan = Combinators.combine(rates, defaultRate, entries, leader)
                .as((r, d, e, l) -> new ThrottlePlan(r, d, e, Map.of(), l));
        Arbitrary<Set<Integer>> up = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(4, Arbitraries.just(ALL_UP)),
                net.jqwik.api.Tuple.of(1, Arbitraries.subsetOf(0, 1, 2)));
        Arbitrary<List<Fault>> faults = Arbitraries.frequencyOf(
                        net.jqwik.api.Tuple.of(3, Arbitraries.just(Fault.NONE)),
                        net.jqwik.api.Tuple.of(1, Arbitraries.of(Fault.values())))
                .list()
                .ofMaxSize(4);
        Arbitrary<Boolean> deposed = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(9, Arbitraries.just(false)), net.jqwik.api.Tuple.of(1, Arbitraries.just(true)));
        Arbitrary<Optional<String>> deleted = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(19, Arbitraries.just(Optional.<String>empty())),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(Optional.of("t3"))));
        Arbitrary<Boolean> stale = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, Arbitraries.just(false)), net.jqwik.api.Tuple.of(1, Arbitraries.just(true)));
        return Combinators.combine(plan, up, faults, deposed, deleted, stale).as(Step::new);
    }
}
