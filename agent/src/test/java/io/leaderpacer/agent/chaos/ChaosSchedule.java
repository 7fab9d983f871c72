package io.leaderpacer.agent.chaos;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * The chaos plan: a sequence of faults drawn from one seed.
 *
 * <p>Why a pure function of the seed: a chaos run that fails must be replayable. {@link #plan} draws every choice
 * (which fault, which broker, how long) from one {@link Random} seeded once, before anything runs, and never
 * consults the cluster, the clock or the outcome of an earlier step; so the same seed and fault count give an
 * equal plan on any machine. What the cluster does in between (how fast partitions catch up, when the agent's
 * runs fall) still varies with the machine's load; the invariants must hold however it falls.
 *
 * <p>Bounds that keep every plan meaningful: one fault at a time (a broker is back up before the next step), and
 * the deprioritized list always leaves at least two brokers out of it, so that every partition (replication
 * factor 3) keeps a replica that is not deprioritized.
 *
 * @param seed    the seed the plan was drawn from
 * @param brokers the cluster's broker count (ids {@code 0 .. brokers-1})
 * @param faults  the steps, in order
 */
record ChaosSchedule(long seed, int brokers, List<ChaosFault> faults) {

    /** Share of steps that restart a broker; the rest change the deprioritized list. */
    static final double RESTART_SHARE = 0.6;
    /** Share of restarts that are crashes (no controlled shutdown). */
    static final double CRASH_SHARE = 0.25;
    /** Share of restarts followed by a slow (throttled) catch-up. */
    static final double SLOW_FOLLOWER_SHARE = 0.5;
    /** Down time of a controlled restart, ms. */
    static final long MIN_DOWN_MS = 1_000;

    static final long MAX_DOWN_MS = 4_000;
    /**
     * Down time of a crash, ms: longer than the cluster's broker session time-out (3 s), so that the controller has
     * fenced the crashed broker before it registers again.
     */
    static final long MIN_CRASH_DOWN_MS = 4_000;

    static final long MAX_CRASH_DOWN_MS = 6_000;
    /** How long a restarted broker's catch-up stays throttled, ms. */
    static final long MIN_SLOW_MS = 3_000;

    static final long MAX_SLOW_MS = 8_000;
    /** Undisturbed agent time after each step, ms. */
    static final long MIN_PAUSE_MS = 1_000;

    static final long MAX_PAUSE_MS = 3_000;

    ChaosSchedule {
        faults = List.copyOf(faults);
    }

    /**
     * Draws a plan.
     *
     * @param seed       the seed (printed by the test; pass it back with {@code -Dchaos.seed} to replay)
     * @param faultCount how many steps
     * @param brokers    brokers in the cluster, at least 3
     */
    static ChaosSchedule plan(long seed, int faultCount, int brokers) {
        return new ChaosSchedule(seed, brokers, draw(new Random(seed), faultCount, brokers));
    }

    /** The cluster steps: restarts and list changes, drawn in order from {@code random}. */
    private static List<ChaosFault> draw(Random random, int faultCount, int brokers) {
        if (faultCount < 0) {
            throw new IllegalArgumentException("fault count must be >= 0, was " + faultCount);
        }
        if (brokers < 3) {
            throw new IllegalArgumentException("a chaos plan needs at least 3 brokers, was " + brokers);
        }
        List<ChaosFault> faults = new ArrayList<>(faultCount);
        Set<Integer> list = Set.of();
        for (int i = 0; i < faultCount; i++) {
            if (random.nextDouble() < RESTART_SHARE) {
                faults.add(restart(random, brokers));
            } else {
                list = nextList(random, brokers, list);
                faults.add(ChaosFault.ListChange.of(list, between(random, MIN_PAUSE_MS, MAX_PAUSE_MS)));
            }
        }
        return faults;
    }

    /**
     * Draws a plan for coordinated agents: the cluster steps of {@link #plan} for the same seed and count, in the
     * same order, with {@code agentStops} stops and {@code agentCrashes} crashes of the active agent instance
     * inserted at positions drawn from the same seed (after the cluster steps are drawn, so these are unchanged).
     *
     * @param seed         the seed
     * @param faultCount   how many cluster steps (broker restarts and list changes)
     * @param brokers      brokers in the cluster, at least 3
     * @param agentStops   how many times the active instance is closed (leaves the group)
     * @param agentCrashes how many times the active instance stops without leaving the group
     */
    static ChaosSchedule planWithAgentFaults(long seed, int faultCount, int brokers, int agentStops, int agentCrashes) {
        if (agentStops < 0 || agentCrashes < 0) {
            throw new IllegalArgumentException(
                    "agent stops and crashes must be >= 0, were " + agentStops + " and " + agentCrashes);
        }
        Random random = new Random(seed);
        List<ChaosFault> faults = new ArrayList<>(draw(random, faultCount, brokers));
        List<Boolean> kinds = new ArrayList<>();
        for (int i = 0; i < agentStops + agentCrashes; i++) {
            kinds.add(i >= agentStops);
        }
        Collections.shuffle(kinds, random);
        for (boolean crash : kinds) {
            faults.add(
                    random.nextInt(faults.size() + 1),
                    new ChaosFault.AgentStop(crash, between(random, MIN_PAUSE_MS, MAX_PAUSE_MS)));
        }
        return new ChaosSchedule(seed, brokers, faults);
    }

    /** The largest deprioritized list a plan sets: every partition keeps two replicas outside it. */
    static int maxListSize(int brokers) {
        return brokers - 2;
    }

    long restarts() {
        return faults.stream().filter(f -> f instanceof ChaosFault.Restart).count();
    }

    long crashes() {
        return faults.stream()
                .filter(f -> f instanceof ChaosFault.Restart r && r.abrupt())
                .count();
    }

    long slowFollowerEpisodes() {
        return faults.stream()
                .filter(f -> f instanceof ChaosFault.Restart r && r.slowFollower())
                .count();
    }

    /**
     * Slow-follower restarts of a broker that is not deprioritized at the time: the gate can hold only those (a
     * deprioritized broker prefers no partition).
     */
    long slowFollowerEpisodesOutsideList() {
        long n = 0;
        Set<Integer> list = Set.of();
        for (ChaosFault f : faults) {
            if (f instanceof ChaosFault.ListChange c) {
                list = c.deprioritized();
            } else if (f instanceof ChaosFault.Restart r && r.slowFollower() && !list.contains(r.broker())) {
                n++;
            }
        }
        return n;
    }

    long agentStops() {
        return faults.stream()
                .filter(f -> f instanceof ChaosFault.AgentStop s && !s.crash())
                .count();
    }

    long agentCrashes() {
        return faults.stream()
                .filter(f -> f instanceof ChaosFault.AgentStop s && s.crash())
                .count();
    }

    long listChanges() {
        return faults.stream().filter(f -> f instanceof ChaosFault.ListChange).count();
    }

    /** The plan, one numbered line per step. */
    String describe() {
        StringBuilder sb = new StringBuilder("chaos plan for seed ")
                .append(seed)
                .append(" (")
                .append(faults.size())
                .append(" steps on ")
                .append(brokers)
                .append(" brokers):\n");
        for (int i = 0; i < faults.size(); i++) {
            sb.append(String.format("  %2d. %s\n", i + 1, faults.get(i).describe()));
        }
        return sb.toString();
    }

    private static ChaosFault.Restart restart(Random random, int brokers) {
        int broker = random.nextInt(brokers);
        boolean crash = random.nextDouble() < CRASH_SHARE;
        long down = crash
                ? between(random, MIN_CRASH_DOWN_MS, MAX_CRASH_DOWN_MS)
                : between(random, MIN_DOWN_MS, MAX_DOWN_MS);
        long slow = random.nextDouble() < SLOW_FOLLOWER_SHARE ? between(random, MIN_SLOW_MS, MAX_SLOW_MS) : 0;
        return new ChaosFault.Restart(broker, crash, down, slow, between(random, MIN_PAUSE_MS, MAX_PAUSE_MS));
    }

    /** A list different from the current one, of 0 .. {@link #maxListSize} brokers. */
    private static Set<Integer> nextList(Random random, int brokers, Set<Integer> current) {
        while (true) {
            List<Integer> ids = new ArrayList<>();
            for (int b = 0; b < brokers; b++) {
                ids.add(b);
            }
            Collections.shuffle(ids, random);
            int size = random.nextInt(maxListSize(brokers) + 1);
            Set<Integer> next = new TreeSet<>(ids.subList(0, size));
            if (!next.equals(current)) {
                return next;
            }
        }
    }

    private static long between(Random random, long min, long max) {
        return min + (long) (random.nextDouble() * (max - min));
    }
}
