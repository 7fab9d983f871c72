package io.leaderpacer.agent.pacing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.leaderpacer.agent.pacing.ThrottleLedger.OwnedAll;
import io.leaderpacer.agent.pacing.ThrottleLedger.OwnedEntries;
import io.leaderpacer.agent.pacing.ThrottleLedger.OwnedRate;
import io.leaderpacer.agent.throttle.BrokerScope;
import io.leaderpacer.agent.throttle.ThrottledReplicas;
import io.leaderpacer.engine.pacing.PacingMemory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * How the {@link ThrottleLedger}'s records are written in the state topic: keys and JSON values, both ways.
 *
 * <p>Kept apart from the ledger because the format outlives any one version of it: a successor of another version
 * must read what a killed instance wrote, so a field added later reads as its old meaning when absent, and a record
 * reads the same every time it is written (entries sorted, fields in one order).
 */
final class LedgerRecords {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Key prefixes of the four kinds of record (the leader side's keys carry its own prefix in front). */
    static final String RATE = "rate:";

    static final String REPLICAS = "replicas:";
    static final String ALL = "all:";
    static final String EPISODE = "episode:";

    private LedgerRecords() {}

    /** The key of a scope's rate record, after the side's prefix. */
    static String rateKey(BrokerScope scope) {
        return RATE + (scope.isClusterDefault() ? "default" : scope.brokerId());
    }

    /** The scope a rate record's key (after the side's prefix) names. */
    static BrokerScope rateScope(String key) {
        String scope = key.substring(RATE.length());
        return scope.equals("default") ? BrokerScope.clusterDefault() : BrokerScope.broker(Integer.parseInt(scope));
    }

    /** The key of a topic's entries record, after the side's prefix. */
    static String entriesKey(String topic) {
        return REPLICAS + topic;
    }

    /** The key of a topic's {@code *} record, after the side's prefix. */
    static String allKey(String topic) {
        return ALL + topic;
    }

    /** The key of a broker's episode record (the follower side's only). */
    static String episodeKey(int broker) {
        return EPISODE + broker;
    }

    static String encode(OwnedRate rate) {
        ObjectNode n = JSON.createObjectNode();
        n.set("prior", nullable(rate.prior()));
        n.put("ours", rate.ours());
        if (!rate.was().isEmpty()) {
            ArrayNode was = n.putArray("was");
            rate.was().forEach(was::add);
        }
        if (rate.unseen()) {
            n.put("unseen", true);
        }
        return n.toString();
    }

    static OwnedRate rate(String value) {
        JsonNode v = parse(value);
        return new OwnedRate(
                optionalLong(v.get("prior")),
                v.get("ours").asLong(),
                longs(v.get("was")),
                v.path("unseen").asBoolean(false));
    }

    static String encode(OwnedEntries owned) {
        ObjectNode n = JSON.createObjectNode();
        n.put("added", sorted(owned.added()));
        n.put("listWasAbsent", owned.listWasAbsent());
        if (owned.unseen()) {
            n.put("unseen", true);
        }
        if (!owned.removed().isEmpty()) {
            n.put("removed", sorted(owned.removed()));
        }
        return n.toString();
    }

    static OwnedEntries entries(String value) {
        JsonNode v = parse(value);
        return new OwnedEntries(
                replicas(v.get("added")),
                v.get("listWasAbsent").asBoolean(),
                v.path("unseen").asBoolean(false),
                v.hasNonNull("removed") ? replicas(v.get("removed")) : Set.of());
    }

    static String encode(OwnedAll owned) {
        ObjectNode n = JSON.createObjectNode();
        n.set(
                "prior",
                owned.prior()
                        .<JsonNode>map(JSON.getNodeFactory()::textNode)
                        .orElse(JSON.getNodeFactory().nullNode()));
        if (owned.unseen()) {
            n.put("unseen", true);
        }
        return n.toString();
    }

    static OwnedAll all(String value) {
        JsonNode v = parse(value);
        return new OwnedAll(
                v.get("prior").isNull()
                        ? Optional.empty()
                        : Optional.of(v.get("prior").asText()),
                v.path("unseen").asBoolean(false));
    }

    static String encode(PacingMemory.Resumed episode) {
        ObjectNode n = JSON.createObjectNode();
        n.put("startMs", episode.startMs());
        n.put("pacedMs", episode.pacedMs());
        n.put("rate", episode.rateBytes());
        n.put("escaped", episode.escaped());
        n.put("peak", episode.peakBytes());
        if (episode.downSinceMs() != Long.MIN_VALUE) {
            n.put("downSinceMs", episode.downSinceMs());
        }
        return n.toString();
    }

    static PacingMemory.Resumed episode(String value) {
        JsonNode v = parse(value);
        return new PacingMemory.Resumed(
                v.get("startMs").asLong(),
                v.get("pacedMs").asLong(),
                v.get("rate").asLong(),
                v.get("escaped").asBoolean(),
                v.get("peak").asLong(),
                // Absent: up at its last look, or written before the field existed.
                v.path("downSinceMs").asLong(Long.MIN_VALUE));
    }

    /** Entries as a config value, in the ledger's order, so that a record reads the same each time. */
    private static String sorted(Set<ThrottledReplicas.Replica> replicas) {
        return ThrottledReplicas.of(
                        replicas.stream().sorted(ThrottleLedger.ORDER).toList())
                .configValue();
    }

    /** Entries written as a config value. */
    private static Set<ThrottledReplicas.Replica> replicas(JsonNode n) {
        return Set.copyOf(ThrottledReplicas.parse(n.asText()).replicas());
    }

    /** Numbers as a list: an array, one number (a record of before the list), or nothing. */
    private static List<Long> longs(JsonNode n) {
        if (n == null || n.isNull()) {
            return List.of();
        }
        if (n.isArray()) {
            List<Long> out = new ArrayList<>();
            n.forEach(x -> out.add(x.asLong()));
            return out;
        }
        return List.of(n.asLong());
    }

    /** A nullable number field; absent (a record written before the field existed) reads as empty. */
    private static OptionalLong optionalLong(JsonNode n) {
        return n == null || n.isNull() ? OptionalLong.empty() : OptionalLong.of(n.asLong());
    }

    private static JsonNode nullable(OptionalLong v) {
        return v.isPresent()
                ? JSON.getNodeFactory().numberNode(v.getAsLong())
                : JSON.getNodeFactory().nullNode();
    }

    private static JsonNode parse(String value) {
        try {
            return JSON.readTree(value);
        } catch (IOException e) {
            throw new IllegalStateException("an unreadable catch-up pacing record in the state topic: " + value, e);
        }
    }
}
