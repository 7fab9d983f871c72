package io.leaderpacer.simulator.scenario;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One simulated situation: a cluster, its workload, what happens to it and when, the physics,
 * and the policies to compare on it. Loaded from a YAML file by {@link ScenarioLoader}.
 *
 * @param name        short name (file names, tables)
 * @param description what the scenario shows
 * @param source      where it was loaded from, for messages
 * @param seed        the default seed; every random stream of a simulation derives from the seed in use
 * @param brokers     broker count (ids 0..brokers-1)
 * @param racks       rack count (broker b is in rack b mod racks), 0 = no racks
 * @param placement   how replicas of topics without an explicit assignment are laid out
 * @param topics      the topics
 * @param events      what happens, ascending by time
 * @param endMs       simulated duration
 * @param model       the physics
 * @param policies    policies to compare, the baseline first
 * @param defined     every custom policy the file defines, compared or not: found by name ({@link #policy}) for
 *                    {@code --policy} and the calibration, run only when chosen
 */
public record Scenario(
        String name,
        String description,
        String source,
        long seed,
        int brokers,
        int racks,
        Placement placement,
        List<TopicSpec> topics,
        List<ScenarioEvent> events,
        long endMs,
        ModelParameters model,
        List<PolicySpec> policies,
        Map<String, PolicySpec> defined) {

    public Scenario {
        topics = List.copyOf(topics);
        events = List.copyOf(events);
        policies = List.copyOf(policies);
        defined = Collections.unmodifiableMap(new LinkedHashMap<>(defined));
    }

    /** The steady-state window ends at the first event: everything before it is undisturbed. */
    public long steadyStateEndMs() {
        return events.isEmpty() ? endMs : events.get(0).atMs();
    }

    public List<ScenarioEvent.Restart> restarts() {
        List<ScenarioEvent.Restart> out = new ArrayList<>();
        for (ScenarioEvent e : events) {
            if (e instanceof ScenarioEvent.Restart r) {
                out.add(r);
            }
        }
        return out;
    }

    public int totalPartitions() {
        int n = 0;
        for (TopicSpec t : topics) {
            n += t.layout().partitions();
        }
        return n;
    }

    /** The compared policy with this name, else the custom policy the file defines by it, or {@code null}. */
    public PolicySpec policy(String policyName) {
        for (PolicySpec p : policies) {
            if (p.name().equals(policyName)) {
                return p;
            }
        }
        return defined.get(policyName);
    }

    public Scenario withSeed(long newSeed) {
        return new Scenario(
                name,
                description,
                source,
                newSeed,
                brokers,
                racks,
                placement,
                topics,
                events,
                endMs,
                model,
                policies,
                defined);
    }

    public Scenario withPolicies(List<PolicySpec> chosen) {
        return new Scenario(
                name,
                description,
                source,
                seed,
                brokers,
                racks,
                placement,
                topics,
                events,
                endMs,
                model,
                chosen,
                defined);
    }

    public Scenario withModel(ModelParameters newModel) {
        return new Scenario(
                name,
                description,
                source,
                seed,
                brokers,
                racks,
                placement,
                topics,
                events,
                endMs,
                newModel,
                policies,
                defined);
    }

    /**
     * The same scenario with every topic's partition count divided by {@code divisor} (at least 1
     * per topic), traffic unchanged: for tests, where the direction of an effect matters and the
     * full-size simulation is for the docs.
     */
    public Scenario scaledDown(int divisor) {
        List<TopicSpec> scaled = new ArrayList<>();
        for (TopicSpec t : topics) {
            scaled.add(t.withPartitions(
                    Math.max(t.layout().replicationFactor(), t.layout().partitions() / divisor)));
        }
        return new Scenario(
                name,
                description,
                source,
                seed,
                brokers,
                racks,
                placement,
                scaled,
                events,
                endMs,
                model,
                policies,
                defined);
    }
}
