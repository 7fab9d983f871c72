package io.leaderpacer.cluster.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The logging configuration of one child JVM: Kafka's own main lines at INFO, everything else at WARN, all of it
 * to the process's standard output, which the cluster sends to the node's log file.
 *
 * <p>Why three files: Kafka logs through SLF4J and its jars bring no binding; whichever binding the class path holds
 * decides which configuration is read. This module brings Logback; a class path with Log4j 2's SLF4J binding
 * instead (as Kafka 4.x's own distribution has) reads the Log4j 2 file, and one with reload4j, the Log4j 1 binding
 * of Kafka 3.x's distribution, reads {@code log4j.properties} (without it, a 3.x broker prints only "No appenders
 * could be found" and nothing else, so the registration line the cluster waits for never appears). All three are
 * given to every child, so logs land in the node's file whatever the version, and neither the test kit's nor the
 * application's own configuration on the class path (a {@code logback-test.xml}, say) is picked up by a broker.
 *
 * <p>Why standard output rather than a file appender: the JVM's own messages (a missing main class, an
 * out-of-memory error) and an SLF4J warning about a missing binding land in the same file, in order.
 */
public final class ChildLogging {

    /** Loggers kept at INFO: start-up, registration, fencing and shutdown of brokers and the controller. */
    static final List<String> INFO_LOGGERS = List.of(
            "kafka.Kafka",
            "kafka.Kafka$",
            "kafka.server.KafkaRaftServer",
            "kafka.server.BrokerServer",
            "kafka.server.ControllerServer",
            "kafka.server.SharedServer",
            "kafka.server.BrokerLifecycleManager",
            "org.apache.kafka.server.BrokerLifecycleManager",
            "org.apache.kafka.controller.QuorumController",
            "org.apache.kafka.controller.ClusterControlManager",
            "org.apache.kafka.controller.BrokerHeartbeatManager",
            "org.apache.kafka.common.utils.AppInfoParser");

    private static final String LOGBACK_FILE = "logback.xml";
    private static final String LOG4J_FILE = "log4j2.xml";
    private static final String LOG4J1_FILE = "log4j.properties";
    private static final String PATTERN_LOGBACK = "%d{HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n";
    private static final String PATTERN_LOG4J = "%d{HH:mm:ss.SSS} %-5level [%t] %c{1.} - %msg%n";
    private static final String PATTERN_LOG4J1 = "%d{HH:mm:ss,SSS} %-5p [%t] %c - %m%n";

    private ChildLogging() {}

    /** Writes the three configurations into {@code directory} and returns the JVM options that select them. */
    public static List<String> writeInto(Path directory) {
        try {
            Files.writeString(directory.resolve(LOGBACK_FILE), logback(), StandardCharsets.UTF_8);
            Files.writeString(directory.resolve(LOG4J_FILE), log4j2(), StandardCharsets.UTF_8);
            Files.writeString(directory.resolve(LOG4J1_FILE), log4j1(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the logging configuration into " + directory, e);
        }
        return options(directory);
    }

    /** The JVM options that select the configurations written by {@link #writeInto}. */
    public static List<String> options(Path directory) {
        return List.of(
                "-Dlogback.configurationFile=" + directory.resolve(LOGBACK_FILE),
                "-Dlog4j2.configurationFile=" + directory.resolve(LOG4J_FILE),
                "-Dlog4j.configuration=" + directory.resolve(LOG4J1_FILE).toUri(),
                "-Dkafka.logs.dir=" + directory);
    }

    static String logback() {
        StringBuilder b = new StringBuilder("<configuration>\n")
                .append("  <appender name=\"OUT\" class=\"ch.qos.logback.core.ConsoleAppender\">\n")
                .append("    <encoder><pattern>")
                .append(PATTERN_LOGBACK)
                .append("</pattern></encoder>\n")
                .append("  </appender>\n");
        for (String name : INFO_LOGGERS) {
            b.append("  <logger name=\"").append(name).append("\" level=\"INFO\"/>\n");
        }
        return b.append("  <root level=\"WARN\"><appender-ref ref=\"OUT\"/></root>\n</configuration>\n")
                .toString();
    }

    static String log4j2() {
        StringBuilder b = new StringBuilder("<Configuration status=\"WARN\">\n")
                .append("  <Appenders>\n    <Console name=\"OUT\" target=\"SYSTEM_OUT\"><PatternLayout pattern=\"")
                .append(PATTERN_LOG4J)
                .append("\"/></Console>\n  </Appenders>\n  <Loggers>\n");
        for (String name : INFO_LOGGERS) {
            b.append("    <Logger name=\"").append(name).append("\" level=\"INFO\"/>\n");
        }
        return b.append("    <Root level=\"WARN\"><AppenderRef ref=\"OUT\"/></Root>\n  </Loggers>\n</Configuration>\n")
                .toString();
    }

    /** Log4j 1 (reload4j) properties: the same loggers, for Kafka 3.x's own binding. */
    static String log4j1() {
        StringBuilder b = new StringBuilder("log4j.rootLogger=WARN, OUT\n")
                .append("log4j.appender.OUT=org.apache.log4j.ConsoleAppender\n")
                .append("log4j.appender.OUT.layout=org.apache.log4j.PatternLayout\n")
                .append("log4j.appender.OUT.layout.ConversionPattern=")
                .append(PATTERN_LOG4J1)
                .append("\n");
        for (String name : INFO_LOGGERS) {
            b.append("log4j.logger.").append(name).append("=INFO\n");
        }
        return b.toString();
    }
}
