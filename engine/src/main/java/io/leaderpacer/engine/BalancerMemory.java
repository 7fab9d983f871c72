package io.leaderpacer.engine;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Everything one run hands the next: the gate's per-broker state and where round-robin starts.
 *
 * <p>An explicit immutable value instead of fields in the balancer, so that a run is a pure
 * function and controller failover is simply {@link #empty()}: KIP-1358 keeps this state
 * transient on the active controller, and failover re-evaluates the gate from scratch.
 *
 * @param gates            per broker, only those gated or escaped
 * @param lastRoundRobinStart the broker round-robin started from last run, or -1
 * @param lastRunMs        when the previous run happened, or -1 before the first
 */
public record BalancerMemory(SortedMap<Integer, BrokerGateState> gates, int lastRoundRobinStart, long lastRunMs) {

    private static final BalancerMemory EMPTY = new BalancerMemory(new TreeMap<>(), -1, -1);

    public BalancerMemory {
        gates = Collections.unmodifiableSortedMap(new TreeMap<>(gates));
    }

    /** No memory: the first run, or the first run after a controller failover. */
    public static BalancerMemory empty() {
        return EMPTY;
    }

    /** The gate state of a broker, or {@code null} when it is open. */
    public BrokerGateState gate(int broker) {
        return gates.get(broker);
    }

    /** Brokers currently remembered as gated (not escaped). */
    public int gatedCount() {
        int n = 0;
        for (Map.Entry<Integer, BrokerGateState> e : gates.entrySet()) {
            if (e.getValue().phase() == GatePhase.GATED) {
                n++;
            }
        }
        return n;
    }
}
