package io.leaderpacer.simulator.scenario;

import java.util.Map;

/**
 * Something that happens to the simulated cluster at a point of logical time.
 */
public sealed interface ScenarioEvent
        permits ScenarioEvent.Restart,
                ScenarioEvent.FollowerStall,
                ScenarioEvent.ControllerFailover,
                ScenarioEvent.ConfigChange {

    /** When it happens, in ms since the start of the simulation. */
    long atMs();

    /**
     * A broker goes down and comes back.
     *
     * @param atMs            when it starts shutting down (or crashes)
     * @param broker          which broker
     * @param downMs          from the process stopping to it registering again
     * @param diskReplaced    it comes back empty and must copy every replica's whole log
     * @param crash           it dies without controlled shutdown and is fenced after the session timeout
     * @param stuckPartitions how many of its preferred partitions never catch up (stragglers)
     */
    record Restart(long atMs, int broker, long downMs, boolean diskReplaced, boolean crash, int stuckPartitions)
            implements ScenarioEvent {}

    /**
     * A fraction of a broker's follower replicas stop fetching for a while (a stalled log
     * directory, a long GC pause on one fetcher): the ones stalled longer than
     * replica.lag.time.max.ms leave the ISR and come back once caught up.
     *
     * @param atMs       when the stall starts
     * @param broker     the broker whose replicas stall
     * @param fraction   the fraction of its replicas affected, chosen by the seed
     * @param durationMs how long they stall
     */
    record FollowerStall(long atMs, int broker, double fraction, long durationMs) implements ScenarioEvent {}

    /**
     * The active controller fails over: no controller for a while, then a new one whose
     * balancer memory is empty and whose periodic task is scheduled afresh.
     */
    record ControllerFailover(long atMs) implements ScenarioEvent {}

    /**
     * A dynamic configuration change applied on top of every policy's configuration (for
     * example setting {@code preferred.leader.deprioritized.list}).
     */
    record ConfigChange(long atMs, Map<String, String> updates) implements ScenarioEvent {
        public ConfigChange {
            updates = Map.copyOf(updates);
        }
    }
}
