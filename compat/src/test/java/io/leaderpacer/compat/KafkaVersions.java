package io.leaderpacer.compat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The Kafka versions a test run covers, and where each one's server jars are.
 *
 * <p>Why system properties: the build decides the versions ({@code -Dcompat.versions=4.1.2,4.4.0} or {@code all}) and
 * copies each version's jars into {@code servers/kafka-VERSION/target/kafka-VERSION/}; the tests only read them.
 */
final class KafkaVersions {

    private KafkaVersions() {}

    /** The versions selected for this run, oldest first as listed. */
    static List<String> selected() {
        String chosen = System.getProperty("compat.versions", "3.9.1,4.4.0").trim();
        String list = chosen.equalsIgnoreCase("all") ? System.getProperty("compat.all", chosen) : chosen;
        return Arrays.stream(list.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
    }

    /** {@code <dir>/*}: the version's jars as a class path for the cluster's children. */
    static String classpath(String version) {
        Path dir = directory(version);
        if (!Files.isRegularFile(dir.resolve("kafka_2.13-" + version + ".jar"))) {
            throw new IllegalStateException("no server jars of Kafka " + version + " in " + dir
                    + ": build the servers module first (mvn -pl compat -am verify), and name only versions it has");
        }
        return dir + "/*";
    }

    static Path directory(String version) {
        Path servers = Path.of(System.getProperty("compat.servers", "servers"));
        return servers.resolve("kafka-" + version).resolve("target").resolve("kafka-" + version);
    }

    /** Major version: 3 or 4. */
    static int major(String version) {
        return Integer.parseInt(version.substring(0, version.indexOf('.')));
    }
}
