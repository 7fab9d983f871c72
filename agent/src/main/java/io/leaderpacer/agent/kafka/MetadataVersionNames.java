package io.leaderpacer.agent.kafka;

import java.util.List;

/**
 * The names of KRaft's {@code metadata.version} feature levels ({@code 3.9-IV0} for level 21, ...).
 *
 * <p>Why a table of our own: the agent carries only Kafka's client, and the level-to-name mapping lives in Kafka's
 * server jars; an operator knows versions by name, not by level. Levels 1 to 33 as Kafka 4.4 defines them (levels
 * 1 to 6 are KRaft's pre-production versions of 3.0 to 3.3); a newer level is reported by its number.
 */
public final class MetadataVersionNames {

    /** Index = feature level; index 0 is unused. */
    private static final List<String> NAMES = List.of(
            "", "3.0-IV1", "3.1-IV0", "3.2-IV0", "3.3-IV0", "3.3-IV1", "3.3-IV2", "3.3-IV3", "3.4-IV0", "3.5-IV0",
            "3.5-IV1", "3.5-IV2", "3.6-IV0", "3.6-IV1", "3.6-IV2", "3.7-IV0", "3.7-IV1", "3.7-IV2", "3.7-IV3",
            "3.7-IV4", "3.8-IV0", "3.9-IV0", "4.0-IV0", "4.0-IV1", "4.0-IV2", "4.0-IV3", "4.1-IV0", "4.1-IV1",
            "4.2-IV0", "4.2-IV1", "4.3-IV0", "4.4-IV0", "4.4-IV1", "4.4-IV2");

    private MetadataVersionNames() {}

    /** {@code 3.9-IV0} for 21; {@code level 40 (newer than 4.4-IV2)} for a level this table does not know. */
    public static String name(int level) {
        if (level >= 1 && level < NAMES.size()) {
            return NAMES.get(level);
        }
        return "level " + level + (level >= NAMES.size() ? " (newer than " + NAMES.get(NAMES.size() - 1) + ")" : "");
    }

    /** The Kafka release a level belongs to: {@code 3.9} for 21; empty for an unknown level. */
    public static String release(int level) {
        if (level >= 1 && level < NAMES.size()) {
            String n = NAMES.get(level);
            return n.substring(0, n.indexOf('-'));
        }
        return "";
    }
}
