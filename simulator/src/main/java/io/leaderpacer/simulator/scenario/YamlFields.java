package io.leaderpacer.simulator.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.leaderpacer.engine.config.ConfigException;
import io.leaderpacer.report.text.ByteSize;
import io.leaderpacer.report.text.DurationText;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A YAML mapping being read field by field, remembering where it is in the file so that every
 * problem can be reported as file + field path + what is wrong.
 */
final class YamlFields {

    private final String file;
    private final String path;
    private final JsonNode node;

    private YamlFields(String file, String path, JsonNode node) {
        this.file = file;
        this.path = path;
        this.node = node;
    }

    /** The document's root, which must be a mapping. */
    static YamlFields root(String file, JsonNode node) {
        if (node == null || node.isMissingNode() || node.isNull()) {
            throw new ScenarioException(file, "", "the file is empty");
        }
        if (!node.isObject()) {
            throw new ScenarioException(file, "", "the top level must be a mapping of fields (name:, topics:, ...)");
        }
        return new YamlFields(file, "", node);
    }

    String file() {
        return file;
    }

    String path() {
        return path;
    }

    String pathOf(String field) {
        return path.isEmpty() ? field : path + "." + field;
    }

    ScenarioException error(String field, String problem) {
        return new ScenarioException(file, field == null ? path : pathOf(field), problem);
    }

    /** Refuses fields this mapping does not know, naming the ones it does. */
    void allowOnly(Set<String> known) {
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String n = names.next();
            if (!known.contains(n)) {
                throw error(n, "unknown field; known fields here are " + new TreeSet<>(known));
            }
        }
    }

    boolean has(String field) {
        JsonNode v = node.get(field);
        return v != null && !v.isNull();
    }

    String requireString(String field) {
        JsonNode v = require(field);
        if (!v.isValueNode() || v.asText().isBlank()) {
            throw error(field, "must be a non-empty text value");
        }
        return v.asText().trim();
    }

    String optString(String field, String fallback) {
        return has(field) ? requireString(field) : fallback;
    }

    long requireLong(String field, long min, long max) {
        JsonNode v = require(field);
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw error(field, shown(v) + " must be a whole number between " + min + " and " + max);
        }
        long value = v.asLong();
        if (value < min || value > max) {
            throw error(field, value + " is out of range: must be between " + min + " and " + max);
        }
        return value;
    }

    int requireInt(String field, int min, int max) {
        return (int) requireLong(field, min, max);
    }

    int optInt(String field, int fallback, int min, int max) {
        return has(field) ? requireInt(field, min, max) : fallback;
    }

    double requireDouble(String field, double min, double max) {
        JsonNode v = require(field);
        if (!v.isNumber()) {
            throw error(field, shown(v) + " must be a number between " + min + " and " + max);
        }
        double value = v.asDouble();
        if (!(value >= min && value <= max)) {
            throw error(field, value + " is out of range: must be between " + min + " and " + max);
        }
        return value;
    }

    double optDouble(String field, double fallback, double min, double max) {
        return has(field) ? requireDouble(field, min, max) : fallback;
    }

    boolean optBoolean(String field, boolean fallback) {
        if (!has(field)) {
            return fallback;
        }
        JsonNode v = node.get(field);
        if (!v.isBoolean()) {
            throw error(field, shown(v) + " must be true or false");
        }
        return v.asBoolean();
    }

    long requireDurationMs(String field) {
        JsonNode v = require(field);
        if (!v.isValueNode()) {
            throw error(field, "must be a duration such as 90s, 10m or 1.5h");
        }
        try {
            return DurationText.parseMs(v.asText());
        } catch (IllegalArgumentException e) {
            throw error(field, e.getMessage());
        }
    }

    /** A byte size as {@link ByteSize} reads it, in bytes: 0 to 1 PiB. */
    double requireBytes(String field) {
        String text = requireString(field);
        try {
            return ByteSize.parse(text);
        } catch (IllegalArgumentException e) {
            throw error(field, e.getMessage());
        }
    }

    long optDurationMs(String field, long fallback) {
        return has(field) ? requireDurationMs(field) : fallback;
    }

    /** One of the given words. */
    String requireChoice(String field, List<String> choices) {
        String s = requireString(field);
        if (!choices.contains(s)) {
            throw error(field, "'" + ConfigException.printable(s) + "' is not one of " + choices);
        }
        return s;
    }

    String optChoice(String field, List<String> choices, String fallback) {
        return has(field) ? requireChoice(field, choices) : fallback;
    }

    /** A nested mapping. */
    YamlFields mapping(String field) {
        JsonNode v = require(field);
        if (!v.isObject()) {
            throw error(field, "must be a mapping of fields");
        }
        return new YamlFields(file, pathOf(field), v);
    }

    /** A nested mapping that may be written as an empty value ({@code controllerFailover:}). */
    YamlFields mappingOrEmpty(String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull() || (v.isTextual() && v.asText().isEmpty())) {
            return new YamlFields(file, pathOf(field), JsonNodeFactory.instance.objectNode());
        }
        return mapping(field);
    }

    /** The elements of a list, each as a mapping. */
    List<YamlFields> mappings(String field) {
        JsonNode v = require(field);
        if (!v.isArray()) {
            throw error(field, "must be a list");
        }
        List<YamlFields> out = new ArrayList<>();
        for (int i = 0; i < v.size(); i++) {
            JsonNode e = v.get(i);
            String p = pathOf(field) + "[" + i + "]";
            if (!e.isObject()) {
                throw new ScenarioException(file, p, "must be a mapping of fields");
            }
            out.add(new YamlFields(file, p, e));
        }
        return out;
    }

    /** A list of text values. */
    List<String> strings(String field) {
        JsonNode v = require(field);
        if (!v.isArray()) {
            throw error(field, "must be a list of names");
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < v.size(); i++) {
            JsonNode e = v.get(i);
            if (!e.isValueNode() || e.asText().isBlank()) {
                throw new ScenarioException(file, pathOf(field) + "[" + i + "]", "must be a name");
            }
            out.add(e.asText().trim());
        }
        return out;
    }

    /** A list of lists of whole numbers (an explicit replica assignment). */
    List<int[]> intLists(String field) {
        JsonNode v = require(field);
        if (!v.isArray()) {
            throw error(field, "must be a list of replica lists such as [0, 1, 2]");
        }
        List<int[]> out = new ArrayList<>();
        for (int i = 0; i < v.size(); i++) {
            JsonNode e = v.get(i);
            String p = pathOf(field) + "[" + i + "]";
            if (!e.isArray()) {
                throw new ScenarioException(file, p, "must be a replica list such as [0, 1, 2]");
            }
            int[] ids = new int[e.size()];
            for (int j = 0; j < e.size(); j++) {
                if (!e.get(j).isIntegralNumber() || !e.get(j).canConvertToInt()) {
                    throw new ScenarioException(file, p + "[" + j + "]", shown(e.get(j)) + " is not a broker id");
                }
                ids[j] = e.get(j).asInt();
            }
            out.add(ids);
        }
        return out;
    }

    /** A mapping of names to scalar values, as text. */
    Map<String, String> scalars(String field) {
        YamlFields m = mapping(field);
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : m.node.properties()) {
            JsonNode v = e.getValue();
            if (!v.isValueNode() && !v.isNull()) {
                throw new ScenarioException(file, m.pathOf(e.getKey()), "must be a single value");
            }
            out.put(e.getKey(), v.isNull() ? "" : v.asText());
        }
        return out;
    }

    /** The mapping's field names in file order. */
    List<String> fieldNames() {
        List<String> out = new ArrayList<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }

    /** A value as a message quotes it: scalars quoted (printable, shortened), containers by their kind. */
    static String shown(JsonNode v) {
        if (v.isArray()) {
            return "a list";
        }
        if (v.isObject()) {
            return "a mapping";
        }
        return "'" + ConfigException.printable(v.asText()) + "'";
    }

    JsonNode raw(String field) {
        return node.get(field);
    }

    private JsonNode require(String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            throw error(field, "is required");
        }
        return v;
    }
}
