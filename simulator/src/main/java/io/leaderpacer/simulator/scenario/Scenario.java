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
        return toBuilder().seed(newSeed).build();
    }

    public Scenario withPolicies(List<PolicySpec> chosen) {
        return toBuilder().policies(chosen).build();
    }

    public Scenario withModel(ModelParameters newModel) {
        return toBuilder().model(newModel).build();
    }

    /** The same scenario with another timeline (a calibration sets each restart's downtime as its runs measured). */
    public Scenario withEvents(List<ScenarioEvent> newEvents) {
        return toBuilder().events(newEvents).build();
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
        return toBuilder().topics(scaled).build();
    }

    private Builder toBuilder() {
        return new Builder(this);
    }

    /** A copy of a scenario with some components replaced: one place that lists them all. */
    private static final class Builder {
        private final Scenario from;
        private long seed;
        private List<TopicSpec> topics;
        private List<ScenarioEvent> events;
        private ModelParameters model;
        private List<PolicySpec> policies;

        Builder(Scenario from) {
            this.from = from;
            this.seed = from.seed;
            this.topics = from.topics;
            this.events = from.events;
            this.model = from.model;
            this.policies = from.policies;
        }

        Builder seed(long v) {
            seed = v;
            return this;
        }

        Builder topics(List<TopicSpec> v) {
            topics = v;
            return this;
        }

        Builder events(List<ScenarioEvent> v) {
            events = v;
            return this;
        }

        Builder model(ModelParameters v) {
            model = v;
            return this;
        }

        Builder policies(List<PolicySpec> v) {
            policies = v;
            return this;
        }

        Scenario build() {
            return new Scenario(
                    from.name,
                    from.description,
                    from.source,
                    seed,
                    from.brokers,
                    from.racks,
                    from.placement,
                    topics,
                    events,
                    from.endMs,
                    model,
                    policies,
                    from.defined);
        }
    }
}
