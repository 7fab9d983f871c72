package io.leaderpacer.agent.chaos;

import java.util.Collections;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * One step of a chaos plan: what happens to the cluster, and how long the test lets the agent work afterwards.
 *
 * <p>Why a closed set of records: the plan must be printable, comparable (the same seed gives an equal plan) and
 * replayable step by step; a sealed interface lets the runner handle every kind exhaustively.
 */
sealed interface ChaosFault {

    /** Milliseconds the agent runs undisturbed after this step, before the next one. */
    long pauseAfterMs();

    /** One line for the log and the report. */
    String describe();

    /**
     * A broker goes down and comes back.
     *
     * @param broker         the broker
     * @param abrupt         whether it stops without waiting for its leadership to move (a crash) rather than with a
     *                       controlled shutdown
     * @param downMs         how long it stays down (traffic keeps writing a backlog it must catch up on)
     * @param slowFollowerMs how long its catch-up is throttled after it restarts (a slow follower); 0 for none
     * @param pauseAfterMs   how long the agent then runs before the next step
     */
    record Restart(int broker, boolean abrupt, long downMs, long slowFollowerMs, long pauseAfterMs)
            implements ChaosFault {

        public Restart {
            if (broker < 0 || downMs < 0 || slowFollowerMs < 0 || pauseAfterMs < 0) {
                throw new IllegalArgumentException("negative value in " + this);
            }
        }

        boolean slowFollower() {
            return slowFollowerMs > 0;
        }

        @Override
        public String describe() {
            return (abrupt ? "crash" : "restart") + " broker " + broker + ", down " + downMs + " ms"
                    + (slowFollower() ? ", then a slow follower for " + slowFollowerMs + " ms" : "")
                    + "; pause " + pauseAfterMs + " ms";
        }
    }

    /**
     * The operator sets the deprioritized list (KIP-491) to a new value through the agent's dynamic configuration.
     *
     * @param deprioritized the new list (empty: clear it)
     * @param pauseAfterMs  how long the agent then runs before the next step
     */
    record ListChange(SortedSet<Integer> deprioritized, long pauseAfterMs) implements ChaosFault {

        public ListChange {
            deprioritized = Collections.unmodifiableSortedSet(new TreeSet<>(deprioritized));
            if (pauseAfterMs < 0) {
                throw new IllegalArgumentException("negative pause in " + this);
            }
        }

        static ListChange of(Set<Integer> brokers, long pauseAfterMs) {
            return new ListChange(new TreeSet<>(brokers), pauseAfterMs);
        }

        /** The value of {@code preferred.leader.deprioritized.list} ("" to clear). */
        String configValue() {
            return configValue(deprioritized);
        }

        /** A list's value for {@code preferred.leader.deprioritized.list}, ascending ("" when empty). */
        static String configValue(Set<Integer> brokers) {
            return String.join(
                    ",", new TreeSet<>(brokers).stream().map(String::valueOf).toList());
        }

        @Override
        public String describe() {
            return "deprioritized list := " + (deprioritized.isEmpty() ? "(empty)" : deprioritized) + "; pause "
                    + pauseAfterMs + " ms";
        }
    }

    /**
     * The active agent instance goes away (coordinated agents only): a standby must take over, with the same pacing
     * and without ever acting at the same time as it; a fresh instance then joins as the new standby.
     *
     * @param crash        whether it stops without leaving the group, so that the group coordinator waits for its
     *                     session time-out (a crash), rather than being closed and leaving at once (a stop)
     * @param pauseAfterMs how long the agents then run before the next step
     */
    record AgentStop(boolean crash, long pauseAfterMs) implements ChaosFault {

        public AgentStop {
            if (pauseAfterMs < 0) {
                throw new IllegalArgumentException("negative pause in " + this);
            }
        }

        @Override
        public String describe() {
            return (crash ? "crash" : "stop") + " the active agent instance, start a fresh standby; pause "
                    + pauseAfterMs + " ms";
        }
    }
}
