package io.leaderpacer.simulator.scenario;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.leaderpacer.engine.config.ConfigException;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.engine.config.Utf8Text;
import io.leaderpacer.engine.policy.LegacyPolicyNames;
import io.leaderpacer.report.policy.LoadTestPolicies;
import io.leaderpacer.report.text.DurationText;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;

/**
 * Reads the scenario format (YAML, documented in docs/SIMULATOR.md) into a {@link Scenario}.
 *
 * <p>Strict on purpose: an unknown field, a missing unit, an out-of-range value or a policy
 * that does not exist is an error naming the file, the field and the problem, raised before
 * anything runs, so a typo can never silently simulate something else.
 */
public final class ScenarioLoader {

    private static final Set<String> TOP = Set.of(
            "name", "description", "seed", "cluster", "topics", "timeline", "model", "policies", "customPolicies");
    private static final Set<String> TOPIC = Set.of(
            "name",
            "partitions",
            "replicationFactor",
            "produceMBps",
            "produceRequestsPerSecond",
            "consumerRequestsPerSecond",
            "skew",
            "retention",
            "uncleanLeaderElection",
            "assignment",
            "backlog",
            "backlogSkew",
            "backlogSizesCsv",
            "acks");
    private static final Set<String> EVENT_TYPES = Set.of("restart", "followerStall", "controllerFailover", "config");
    private static final long MIN_STEADY_MS = 60_000;

    private final ObjectMapper yaml;

    public ScenarioLoader() {
        yaml = new ObjectMapper(new YAMLFactory());
        yaml.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    }

    /** Loads a scenario file. */
    public Scenario load(Path file) {
        String name = file.toString();
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new ScenarioException(name, "", "no such file");
        } catch (IOException e) {
            throw new ScenarioException(name, "", "cannot be read: " + e.getMessage());
        }
        return parse(name, utf8(name, bytes));
    }

    /** The file's text; bytes that are not UTF-8 are an error naming the file, the first bad byte and its line. */
    private static String utf8(String name, byte[] bytes) {
        try {
            return Utf8Text.decode(bytes);
        } catch (Utf8Text.NotUtf8Exception e) {
            throw new ScenarioException(name, "", e.getMessage());
        }
    }

    /**
     * A YAML parser's message on one line: its statements without the quoted source lines and carets under them
     * (the line and column are given separately).
     */
    private static String yamlProblem(String message) {
        if (message == null) {
            return "unreadable";
        }
        StringJoiner parts = new StringJoiner("; ");
        for (String line : message.split("\r?\n")) {
            if (!line.isBlank() && !Character.isWhitespace(line.charAt(0))) {
                parts.add(line.strip());
            }
        }
        return parts.length() == 0 ? message.strip() : parts.toString();
    }

    /** Parses scenario text; {@code source} names it in messages. */
    public Scenario parse(String source, String text) {
        JsonNode root;
        try {
            root = yaml.readTree(text);
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null
                    ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column "
                            + e.getLocation().getColumnNr();
            throw new ScenarioException(
                    source, "", "not valid YAML" + where + ": " + yamlProblem(e.getOriginalMessage()));
        }
        YamlFields top = YamlFields.root(source, root);
        top.allowOnly(TOP);

        String scenarioName = top.requireString("name");
        if (!scenarioName.matches("[A-Za-z0-9._-]+")) {
            throw top.error(
                    "name",
                    "'" + ConfigException.printable(scenarioName)
                            + "' may only contain letters, digits, '.', '_' and '-' (it names output files)");
        }
        String description = top.optString("description", "");
        long seed = top.has("seed") ? top.requireLong("seed", Long.MIN_VALUE, Long.MAX_VALUE) : 1L;

        YamlFields cluster = top.mapping("cluster");
        cluster.allowOnly(Set.of("brokers", "racks", "placement"));
        int brokers = cluster.requireInt("brokers", 1, 100_000);
        int racks = cluster.optInt("racks", 0, 0, brokers);
        Placement placement = Placement.named(
                cluster.optChoice("placement", Placement.yamlNames(), Placement.CONSECUTIVE.yamlName()));
        if (placement == Placement.STRIPED && racks > 0) {
            throw cluster.error(
                    "placement",
                    "striped is Kafka's rack-unaware placement and does not keep replicas on "
                            + "distinct racks; drop racks, use consecutive, or give each topic an explicit assignment");
        }

        List<TopicSpec> topics = topics(top, brokers, racks, source);
        ModelParameters model = model(top);

        YamlFields timeline = top.mapping("timeline");
        timeline.allowOnly(Set.of("end", "events"));
        long endMs = timeline.requireDurationMs("end");
        if (endMs < 2 * MIN_STEADY_MS) {
            throw timeline.error("end", "the simulation must last at least 2m");
        }
        List<ScenarioEvent> events = events(timeline, brokers, endMs);

        Map<String, PolicySpec> custom = customPolicies(top);
        List<PolicySpec> policies = policies(top, custom, StandardPolicies.preferredPerBroker(topics, brokers));
        return new Scenario(
                scenarioName,
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
                policies,
                custom);
    }

    private static List<TopicSpec> topics(YamlFields top, int brokers, int racks, String source) {
        List<YamlFields> list = top.mappings("topics");
        if (list.isEmpty()) {
            throw top.error("topics", "needs at least one topic");
        }
        List<TopicSpec> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        long total = 0;
        for (YamlFields t : list) {
            t.allowOnly(TOPIC);
            String name = t.requireString("name");
            if (!names.add(name)) {
                throw t.error("name", "topic '" + ConfigException.printable(name) + "' is defined twice");
            }
            int partitions = t.requireInt("partitions", 1, 10_000_000);
            total += partitions;
            int rf = t.optInt("replicationFactor", Math.min(3, brokers), 1, 8);
            if (rf > brokers) {
                throw t.error(
                        "replicationFactor",
                        rf + " replicas need at least " + rf + " brokers; the cluster has " + brokers);
            }
            if (racks > 0 && rf > racks && !t.has("assignment")) {
                throw t.error(
                        "replicationFactor",
                        rf + " replicas cannot sit on distinct racks: the cluster has " + racks
                                + " racks (broker b is in rack b mod racks)");
            }
            double mbps = t.requireDouble("produceMBps", 0, 1e9);
            double requests = t.optDouble("produceRequestsPerSecond", 2.0 * partitions, 0, 1e12);
            double consumers = t.optDouble("consumerRequestsPerSecond", 0, 0, 1e12);
            RateSkew skew = skew(t, "skew");
            long retention = t.optDurationMs("retention", 3_600_000L);
            boolean unclean = t.optBoolean("uncleanLeaderElection", false);
            List<int[]> assignment = t.has("assignment") ? assignment(t, partitions, rf, brokers) : List.of();
            double backlog = t.has("backlog") ? t.requireBytes("backlog") : 0;
            RateSkew backlogSkew = t.has("backlogSkew") ? skew(t, "backlogSkew") : skew;
            List<Double> sizes = List.of();
            if (t.has("backlogSizesCsv")) {
                if (t.has("backlogSkew")) {
                    throw t.error("backlogSizesCsv", "give either backlogSizesCsv or backlogSkew, not both");
                }
                sizes = PartitionSizesCsv.read(t, "backlogSizesCsv", source, partitions);
                if (!t.has("backlog")) {
                    backlog = sizes.stream().mapToDouble(Double::doubleValue).sum();
                }
            }
            boolean acksAll = t.optChoice("acks", List.of("all", "1"), "all").equals("all");
            out.add(new TopicSpec(
                    name,
                    new TopicSpec.Layout(partitions, rf, assignment),
                    new TopicSpec.Traffic(mbps * 1e6, requests, consumers, skew, acksAll),
                    new TopicSpec.Backlog(backlog, backlogSkew, sizes),
                    retention,
                    unclean));
        }
        if (total > 20_000_000) {
            throw top.error("topics", total + " partitions in all; the simulator takes at most 20,000,000");
        }
        return out;
    }

    private static RateSkew skew(YamlFields t, String field) {
        if (!t.has(field)) {
            return RateSkew.uniform();
        }
        JsonNode raw = t.raw(field);
        if (raw.isTextual()) {
            if (raw.asText().trim().equals("uniform")) {
                return RateSkew.uniform();
            }
            throw t.error(
                    field,
                    YamlFields.shown(raw) + " is not a skew; write uniform, {kind: lognormal, sigma: 0.5} "
                            + "or {kind: zipf, exponent: 1.0}");
        }
        YamlFields s = t.mapping(field);
        String kind = s.requireChoice("kind", List.of("uniform", "lognormal", "zipf"));
        switch (kind) {
            case "lognormal":
                s.allowOnly(Set.of("kind", "sigma"));
                return new RateSkew(RateSkew.Kind.LOGNORMAL, s.requireDouble("sigma", 0, 5));
            case "zipf":
                s.allowOnly(Set.of("kind", "exponent"));
                return new RateSkew(RateSkew.Kind.ZIPF, s.requireDouble("exponent", 0, 5));
            default:
                s.allowOnly(Set.of("kind"));
                return RateSkew.uniform();
        }
    }

    private static List<int[]> assignment(YamlFields t, int partitions, int rf, int brokers) {
        List<int[]> lists = t.intLists("assignment");
        if (lists.size() != partitions) {
            throw t.error("assignment", "has " + lists.size() + " replica lists for " + partitions + " partitions");
        }
        for (int i = 0; i < lists.size(); i++) {
            int[] r = lists.get(i);
            String field = t.pathOf("assignment") + "[" + i + "]";
            if (r.length != rf) {
                throw new ScenarioException(
                        t.file(), field, "has " + r.length + " replicas; replicationFactor is " + rf);
            }
            Set<Integer> seen = new HashSet<>();
            for (int b : r) {
                if (b < 0 || b >= brokers) {
                    throw new ScenarioException(
                            t.file(), field, "broker " + b + " does not exist (brokers are 0.." + (brokers - 1) + ")");
                }
                if (!seen.add(b)) {
                    throw new ScenarioException(t.file(), field, "broker " + b + " appears twice");
                }
            }
        }
        return lists;
    }

    private static ModelParameters model(YamlFields top) {
        if (!top.has("model")) {
            return ModelParameters.defaults();
        }
        YamlFields m = top.mapping("model");
        Map<ModelKey, Double> overrides = new EnumMap<>(ModelKey.class);
        for (String name : m.fieldNames()) {
            ModelKey k = ModelKey.forKey(name);
            if (k == null) {
                throw m.error(name, "unknown model parameter; known parameters are " + ModelKey.keys());
            }
            overrides.put(k, m.requireDouble(name, k.min(), k.max()));
        }
        return ModelParameters.defaults().with(overrides);
    }

    private static List<ScenarioEvent> events(YamlFields timeline, int brokers, long endMs) {
        List<ScenarioEvent> out = new ArrayList<>();
        if (!timeline.has("events")) {
            throw timeline.error("events", "is required: a scenario needs at least one broker restart");
        }
        for (YamlFields e : timeline.mappings("events")) {
            long at = e.requireDurationMs("at");
            if (at < MIN_STEADY_MS) {
                throw e.error("at", "events must start at 1m or later so that there is a steady state to compare with");
            }
            if (at >= endMs) {
                throw e.error(
                        "at",
                        DurationText.format(at) + " is not before the end of the simulation ("
                                + DurationText.format(endMs) + ")");
            }
            List<String> types = new ArrayList<>();
            for (String f : e.fieldNames()) {
                if (f.equals("at")) {
                    continue;
                }
                if (!EVENT_TYPES.contains(f)) {
                    throw e.error(f, "unknown event type; an event is 'at' plus one of " + EVENT_TYPES);
                }
                types.add(f);
            }
            if (types.size() != 1) {
                throw new ScenarioException(
                        e.file(),
                        e.path(),
                        "an event needs 'at' and exactly one of " + EVENT_TYPES + ", found " + types);
            }
            out.add(event(e, types.get(0), at, brokers));
        }
        out.sort(Comparator.comparingLong(ScenarioEvent::atMs));
        if (out.stream().noneMatch(ev -> ev instanceof ScenarioEvent.Restart)) {
            throw timeline.error("events", "needs at least one restart: the simulator measures broker recovery");
        }
        return out;
    }

    private static ScenarioEvent event(YamlFields e, String type, long at, int brokers) {
        switch (type) {
            case "restart": {
                YamlFields r = e.mapping("restart");
                r.allowOnly(Set.of("broker", "down", "disk", "shutdown", "stuckPartitions"));
                int broker = r.requireInt("broker", 0, brokers - 1);
                long down = r.requireDurationMs("down");
                boolean replaced =
                        r.optChoice("disk", List.of("kept", "replaced"), "kept").equals("replaced");
                boolean crash = r.optChoice("shutdown", List.of("controlled", "crash"), "controlled")
                        .equals("crash");
                int stuck = r.optInt("stuckPartitions", 0, 0, 10_000_000);
                return new ScenarioEvent.Restart(at, broker, down, replaced, crash, stuck);
            }
            case "followerStall": {
                YamlFields s = e.mapping("followerStall");
                s.allowOnly(Set.of("broker", "fraction", "duration"));
                return new ScenarioEvent.FollowerStall(
                        at,
                        s.requireInt("broker", 0, brokers - 1),
                        s.requireDouble("fraction", 0, 1),
                        s.requireDurationMs("duration"));
            }
            case "controllerFailover": {
                YamlFields c = e.mappingOrEmpty("controllerFailover");
                c.allowOnly(Set.of());
                return new ScenarioEvent.ControllerFailover(at);
            }
            default: {
                Map<String, String> updates = e.scalars("config");
                try {
                    PacerConfig.defaults().withUpdates(updates);
                } catch (ConfigException ex) {
                    throw new ScenarioException(e.file(), e.pathOf("config") + "." + ex.key(), ex.getMessage());
                }
                return new ScenarioEvent.ConfigChange(at, updates);
            }
        }
    }

    private static Map<String, PolicySpec> customPolicies(YamlFields top) {
        Map<String, PolicySpec> out = new LinkedHashMap<>();
        if (!top.has("customPolicies")) {
            return out;
        }
        for (YamlFields p : top.mappings("customPolicies")) {
            p.allowOnly(Set.of("name", "description", "config", "replicationThrottleMBps"));
            String name = p.requireString("name");
            if (LoadTestPolicies.find(name).isPresent()) {
                throw p.error(
                        "name",
                        "'" + ConfigException.printable(name)
                                + "' is a standard policy; give the custom one another name");
            }
            if (LegacyPolicyNames.replacement(name).isPresent()) {
                throw p.error("name", LegacyPolicyNames.replacement(name).get() + "; give the custom one another name");
            }
            if (out.containsKey(name)) {
                throw p.error("name", "policy '" + ConfigException.printable(name) + "' is defined twice");
            }
            Map<String, String> config = p.has("config") ? p.scalars("config") : Map.of();
            try {
                PacerConfig.fromMap(config);
            } catch (ConfigException ex) {
                throw new ScenarioException(p.file(), p.pathOf("config") + "." + ex.key(), ex.getMessage());
            }
            double throttle = p.optDouble("replicationThrottleMBps", 0, 0, 1e9) * 1e6;
            out.put(name, new PolicySpec(name, p.optString("description", name), config, throttle));
        }
        return out;
    }

    private static List<PolicySpec> policies(YamlFields top, Map<String, PolicySpec> custom, int preferredPerBroker) {
        List<String> names = top.has("policies") ? top.strings("policies") : StandardPolicies.defaultSet();
        List<PolicySpec> out = new ArrayList<>();
        out.add(StandardPolicies.named(StandardPolicies.BASELINE, preferredPerBroker));
        for (int i = 0; i < names.size(); i++) {
            String n = names.get(i).strip();
            PolicySpec p;
            try {
                p = PolicyText.resolve(n, custom, preferredPerBroker);
            } catch (IllegalArgumentException e) {
                throw new ScenarioException(top.file(), "policies[" + i + "]", e.getMessage());
            }
            if (p == null) {
                throw new ScenarioException(
                        top.file(),
                        "policies[" + i + "]",
                        StandardPolicies.unknown(PolicyText.name(n), custom.keySet()));
            }
            if (out.stream().noneMatch(q -> q.name().equals(n))) {
                out.add(p);
            }
        }
        return out;
    }
}
