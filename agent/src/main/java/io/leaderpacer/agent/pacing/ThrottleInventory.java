package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.kafka.ClusterReader;
import io.leaderpacer.agent.throttle.BrokerScope;
import io.leaderpacer.agent.throttle.ReplicationThrottles;
import io.leaderpacer.agent.throttle.ThrottleRate;
import io.leaderpacer.agent.throttle.ThrottleReading;
import io.leaderpacer.agent.throttle.ThrottleSide;
import io.leaderpacer.agent.throttle.ThrottledReplicas;
import io.leaderpacer.agent.throttle.ThrottledReplicas.Replica;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConfigEntry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * Every replication throttle config in a cluster (the cluster default, each broker that is up, each topic's lists,
 * leader and follower side), each marked as catch-up pacing's, from its ledger, or someone else's: what
 * {@code pacer throttles} shows.
 *
 * <p>Why: a replication throttle left behind silently slows every later catch-up and reassignment, and nobody
 * remembers who set it. An operator checks here that nothing of pacing's is left once the cluster is back in sync,
 * and sees whose each value is before touching it.
 */
public final class ThrottleInventory {

    /** How many topics one {@code describeConfigs} call asks for. */
    private static final int DESCRIBE_BATCH = 500;

    /**
     * One throttle value.
     *
     * @param where "cluster default", "broker N" or "topic T"
     * @param key   the config key
     * @param value the value in force there (a broker's own value only: one inherited from the default is listed once,
     *              at the default)
     * @param owner whose it is: "pacing's" with what it replaced, "someone else's", or, for a list, the entries of each
     */
    public record Line(String where, String key, String value, String owner) {}

    /**
     * What the look found.
     *
     * @param lines      every throttle value set, cluster default first, then brokers, then topics
     * @param unseen     what the ledger records that could not be read now (a broker that is down), one line each
     * @param pacingOwns whether the ledger records any throttle value as pacing's
     * @param steady     whether every registered broker is up and every replica in its ISR (no broker recovering)
     */
    public record Inventory(List<Line> lines, List<String> unseen, boolean pacingOwns, boolean steady) {
        public Inventory {
            lines = List.copyOf(lines);
            unseen = List.copyOf(unseen);
        }

        /** Pacing owns a throttle value while no broker recovers: it should have restored it. */
        public boolean leftBehind() {
            return pacingOwns && steady;
        }
    }

    private ThrottleInventory() {}

    /** Reads the cluster's throttle configs and the ledger in {@code store}. */
    public static Inventory read(Admin admin, LedgerStore store, Duration timeout)
            throws InterruptedException, ExecutionException, TimeoutException {
        Map<ThrottleSide, ThrottleLedger> ledgers = new EnumMap<>(ThrottleSide.class);
        for (ThrottleSide side : ThrottleSide.values()) {
            ThrottleLedger l = new ThrottleLedger(store, side);
            l.load();
            ledgers.put(side, l);
        }
        ClusterReader reader = new ClusterReader(admin, timeout, DESCRIBE_BATCH);
        ClusterSnapshot snapshot = reader.read();
        Set<Integer> up = new TreeSet<>();
        snapshot.brokers().values().stream().filter(b -> b.isActive()).forEach(b -> up.add(b.id()));
        Set<BrokerScope> scopes = new LinkedHashSet<>();
        scopes.add(BrokerScope.clusterDefault());
        up.forEach(b -> scopes.add(BrokerScope.broker(b)));
        Set<String> topics = reader.topicNames();
        ThrottleReading now = new ReplicationThrottles(admin, timeout).describeEach(scopes, topics, DESCRIBE_BATCH);
        List<Line> lines = new ArrayList<>();
        List<String> unseen = new ArrayList<>();
        brokerLines(now, scopes, ledgers, lines, unseen);
        Set<BrokerScope> stranded = rateScopesNotRead(ledgers, scopes, reader, snapshot, unseen);
        topicLines(now, topics, ledgers, lines, unseen);
        forgottenTopics(ledgers, topics, unseen);
        boolean owns = ledgers.values().stream().anyMatch(l -> !l.ownsNoValueBut(stranded));
        return new Inventory(lines, unseen, owns, PacingLoop.inSync(snapshot));
    }

    /** Each broker scope's rates, with their owner; a scope not read is said so. */
    private static void brokerLines(
            ThrottleReading now,
            Set<BrokerScope> scopes,
            Map<ThrottleSide, ThrottleLedger> ledgers,
            List<Line> lines,
            List<String> unseen) {
        for (BrokerScope s : scopes) {
            if (now.failure(s).isPresent()) {
                unseen.add(s + ": not read ("
                        + ThrottleReading.describe(now.failure(s).get()) + ")");
                continue;
            }
            for (ThrottleSide side : ThrottleSide.values()) {
                OptionalLong v = RatePlanner.current(now, side, s);
                if (v.isPresent()) {
                    lines.add(new Line(
                            s.toString(),
                            side.rateKey(),
                            Long.toString(v.getAsLong()),
                            rateOwner(ledgers.get(side), s, v)));
                }
                Optional<ThrottleRate> fixed = now.settings()
                        .rate(side, s)
                        .filter(r ->
                                !s.isClusterDefault() && r.source() == ConfigEntry.ConfigSource.STATIC_BROKER_CONFIG);
                fixed.ifPresent(r -> lines.add(new Line(
                        s.toString(),
                        side.rateKey(),
                        Long.toString(r.bytesPerSecond()),
                        "someone else's (static: the broker's server.properties)")));
            }
        }
    }

    /** The rates pacing recorded on brokers not read now (down, or no longer registered); those of the latter. */
    private static Set<BrokerScope> rateScopesNotRead(
            Map<ThrottleSide, ThrottleLedger> ledgers,
            Set<BrokerScope> scopes,
            ClusterReader reader,
            ClusterSnapshot snapshot,
            List<String> unseen) {
        // A broker the cluster no longer lists at all (Kafka 4.0+ lists fenced ones): its config cannot be changed by
        // any client until a broker with its id registers, and throttles nothing meanwhile.
        Set<BrokerScope> stranded = new LinkedHashSet<>();
        for (ThrottleLedger ledger : ledgers.values()) {
            for (BrokerScope s : ledger.rateScopes()) {
                if (!scopes.contains(s)) {
                    boolean gone = reader.listsFencedBrokers()
                            && !s.isClusterDefault()
                            && !snapshot.isRegistered(Integer.parseInt(s.brokerId()));
                    if (gone) {
                        stranded.add(s);
                    }
                    ThrottleLedger.OwnedRate o = ledger.rate(s).orElseThrow();
                    unseen.add(s + (gone ? " (not registered)" : " (down)") + ": pacing's "
                            + ledger.side().name().toLowerCase(Locale.ROOT)
                            + " rate " + o.ours() + " recorded, replacing "
                            + o.prior().stream()
                                    .mapToObj(Long::toString)
                                    .findFirst()
                                    .orElse("none")
                            + (gone
                                    ? "; no client can change it until a broker with that id registers, when pacing"
                                            + " restores it"
                                    : "; restored once the broker is up"));
                }
            }
        }
        return stranded;
    }

    /** Each topic's replica lists, with their owner; a topic not read is said so. */
    private static void topicLines(
            ThrottleReading now,
            Set<String> topics,
            Map<ThrottleSide, ThrottleLedger> ledgers,
            List<Line> lines,
            List<String> unseen) {
        for (String t : topics) {
            if (now.failure(t).isPresent()) {
                if (!now.gone(t)) {
                    unseen.add("topic " + t + ": not read ("
                            + ThrottleReading.describe(now.failure(t).get()) + ")");
                }
                continue;
            }
            for (ThrottleSide side : ThrottleSide.values()) {
                Optional<ThrottledReplicas> list = now.settings().replicas(side, t);
                if (list.isPresent()) {
                    lines.add(new Line(
                            "topic " + t,
                            side.replicasKey(),
                            list.get().configValue(),
                            listOwner(ledgers.get(side), t, list.get())));
                }
            }
        }
    }

    /** Topics pacing recorded that no longer exist. */
    private static void forgottenTopics(
            Map<ThrottleSide, ThrottleLedger> ledgers, Set<String> topics, List<String> unseen) {
        for (ThrottleLedger ledger : ledgers.values()) {
            for (String t : ledger.topics()) {
                if (!topics.contains(t)) {
                    unseen.add("topic " + t + " (no longer exists): pacing's record of it is forgotten at the agent's"
                            + " next look");
                }
            }
        }
    }

    private static String rateOwner(ThrottleLedger ledger, BrokerScope scope, OptionalLong value) {
        return ledger.rate(scope)
                .filter(o -> o.isOurs(value))
                .map(o -> "pacing's (replaced: "
                        + o.prior().stream()
                                .mapToObj(Long::toString)
                                .findFirst()
                                .orElse("none") + ")")
                .orElse("someone else's");
    }

    private static String listOwner(ThrottleLedger ledger, String topic, ThrottledReplicas list) {
        if (list.all()) {
            return ledger.all(topic)
                    .map(a -> "pacing's (replaced: "
                            + a.prior().filter(p -> !p.isEmpty()).orElse("none") + ")")
                    .orElse("someone else's");
        }
        Set<Replica> ours = ThrottleLedger.sortedSet(
                ledger.entries(topic).map(ThrottleLedger.OwnedEntries::added).orElse(Set.of()));
        ours.retainAll(list.replicas());
        if (ours.isEmpty()) {
            return "someone else's";
        }
        Set<Replica> others = ThrottleLedger.sortedSet(list.replicas());
        others.removeAll(ours);
        return "pacing's " + ThrottledReplicas.of(ours).configValue()
                + (others.isEmpty()
                        ? ""
                        : "; someone else's " + ThrottledReplicas.of(others).configValue());
    }
}
