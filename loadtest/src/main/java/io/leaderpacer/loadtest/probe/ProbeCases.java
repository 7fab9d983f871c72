package io.leaderpacer.loadtest.probe;

import io.leaderpacer.loadtest.probe.ThrottleCase.Removal;
import io.leaderpacer.loadtest.probe.ThrottleSetup.Lists;
import io.leaderpacer.loadtest.probe.ThrottleSetup.Scope;
import io.leaderpacer.loadtest.probe.ThrottleSetup.Side;
import io.leaderpacer.loadtest.probe.ThrottleSetup.When;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The probe's cases, by name: the matrix the question needs (which side, which rate scope, which lists, set while
 * the broker is up or down, with or without a CPU cap, and how a throttle is removed), each against the same
 * unthrottled reference.
 */
public final class ProbeCases {

    /**
     * How often a stepped case's rate steps: about how often adaptive pacing's canary moved it in evidence run 21
     * (a look every 2 s, a change every 2-3 looks), and under Kafka's quota window of 11 s.
     */
    static final long STEP_MS = 6_000;

    private ProbeCases() {}

    /** Every case, in the order they run by default. */
    public static Map<String, ThrottleCase> all(ProbeSettings s) {
        long r = s.rateBytes();
        Map<String, ThrottleCase> m = new LinkedHashMap<>();
        add(m, "none", null, Optional.empty(), Removal.NONE);
        placements(m, r);
        capped(m, r, Optional.of(s.cpuCapCores()));
        removals(m, r);
        stepped(
                m,
                "follower-broker-all-up-stepped",
                new ThrottleSetup(Side.FOLLOWER, Scope.PER_BROKER, Lists.ALL, When.BROKER_UP, r));
        stepped(
                m,
                "leader-broker-entries-down-stepped",
                new ThrottleSetup(Side.LEADER, Scope.PER_BROKER, Lists.ENTRIES, When.BROKER_DOWN, r));
        return m;
    }

    /** Where a throttle can stand: side, rate scope and lists, set while the broker is up or down; uncapped. */
    private static void placements(Map<String, ThrottleCase> m, long r) {
        placed(m, "follower-default-all-up", Side.FOLLOWER, Scope.CLUSTER_DEFAULT, Lists.ALL, When.BROKER_UP, r);
        placed(m, "follower-default-all-down", Side.FOLLOWER, Scope.CLUSTER_DEFAULT, Lists.ALL, When.BROKER_DOWN, r);
        placed(
                m,
                "follower-default-entries-down",
                Side.FOLLOWER,
                Scope.CLUSTER_DEFAULT,
                Lists.ENTRIES,
                When.BROKER_DOWN,
                r);
        placed(m, "follower-broker-all-up", Side.FOLLOWER, Scope.PER_BROKER, Lists.ALL, When.BROKER_UP, r);
        placed(m, "follower-broker-all-down", Side.FOLLOWER, Scope.PER_BROKER, Lists.ALL, When.BROKER_DOWN, r);
        placed(m, "leader-broker-entries-down", Side.LEADER, Scope.PER_BROKER, Lists.ENTRIES, When.BROKER_DOWN, r);
        placed(m, "leader-default-all-down", Side.LEADER, Scope.CLUSTER_DEFAULT, Lists.ALL, When.BROKER_DOWN, r);
    }

    /** The reference and two placements again with the broker's CPU capped: does a throttle weigh more then. */
    private static void capped(Map<String, ThrottleCase> m, long r, Optional<Double> cap) {
        add(m, "none-capped", null, cap, Removal.NONE);
        add(
                m,
                "follower-default-all-down-capped",
                new ThrottleSetup(Side.FOLLOWER, Scope.CLUSTER_DEFAULT, Lists.ALL, When.BROKER_DOWN, r),
                cap,
                Removal.NONE);
        add(
                m,
                "leader-broker-entries-down-capped",
                new ThrottleSetup(Side.LEADER, Scope.PER_BROKER, Lists.ENTRIES, When.BROKER_DOWN, r),
                cap,
                Removal.NONE);
    }

    /** One throttle, removed in each way a throttle can be removed while the broker catches up. */
    private static void removals(Map<String, ThrottleCase> m, long r) {
        ThrottleSetup removable =
                new ThrottleSetup(Side.FOLLOWER, Scope.CLUSTER_DEFAULT, Lists.ALL, When.BROKER_DOWN, r);
        add(m, "remove-lists", removable, Optional.empty(), Removal.LISTS);
        add(m, "remove-rate", removable, Optional.empty(), Removal.RATE);
        add(m, "remove-both", removable, Optional.empty(), Removal.BOTH);
        add(m, "remove-both-topic-recreated", removable, Optional.empty(), Removal.BOTH_SAME_TOPIC_RECREATED);
    }

    /** The named cases, in the given order. */
    public static List<ThrottleCase> named(ProbeSettings s, List<String> names) {
        Map<String, ThrottleCase> all = all(s);
        List<ThrottleCase> out = new ArrayList<>();
        for (String n : names) {
            ThrottleCase c = all.get(n.strip());
            if (c == null) {
                throw new IllegalArgumentException(
                        "unknown probe case '" + n.strip() + "': the cases are " + String.join(", ", all.keySet()));
            }
            out.add(c);
        }
        return out;
    }

    private static void add(
            Map<String, ThrottleCase> m, String name, ThrottleSetup t, Optional<Double> cap, Removal removal) {
        m.put(name, new ThrottleCase(name, Optional.ofNullable(t), cap, removal, 0));
    }

    /** A case with one throttle placed so; uncapped, nothing removed. */
    private static void placed(
            Map<String, ThrottleCase> m, String name, Side side, Scope scope, Lists lists, When when, long r) {
        add(m, name, new ThrottleSetup(side, scope, lists, when, r), Optional.empty(), Removal.NONE);
    }

    /** A case whose rate steps every {@link #STEP_MS} once the broker is unfenced; uncapped, nothing removed. */
    private static void stepped(Map<String, ThrottleCase> m, String name, ThrottleSetup t) {
        m.put(name, new ThrottleCase(name, Optional.of(t), Optional.empty(), Removal.NONE, STEP_MS));
    }
}
