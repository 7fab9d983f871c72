package io.leaderpacer.embedded;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * Turns Kafka's own server logging down to warnings when Logback is the logging backend.
 *
 * <p>Why: an in-JVM cluster logs hundreds of INFO lines per second (partition state changes, fetcher
 * threads, log segments), which would drown the demo's timeline and the agent's own log lines. Only Kafka's
 * loggers are touched; the application's configuration stays in charge of everything else. Without Logback
 * on the class path this does nothing (Logback is an optional dependency of this module).
 */
final class KafkaServerLogging {

    /** Logger names of Kafka's server, controller and client code. */
    private static final List<String> KAFKA_LOGGERS =
            List.of("kafka", "org.apache.kafka", "state.change.logger", "org.apache.zookeeper");

    private KafkaServerLogging() {}

    /** Sets Kafka's loggers to WARN if Logback is in use; otherwise leaves logging alone. */
    static void quiet() {
        if (logbackPresent()) {
            LogbackLevels.atLeastWarn(KAFKA_LOGGERS);
        }
    }

    private static boolean logbackPresent() {
        try {
            Class.forName("ch.qos.logback.classic.LoggerContext", false, KafkaServerLogging.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Kept apart so that Logback's classes are loaded only when Logback is present. */
    private static final class LogbackLevels {
        static void atLeastWarn(List<String> names) {
            if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
                for (String name : names) {
                    Logger logger = context.getLogger(name);
                    if (logger.getLevel() == null || !logger.getLevel().isGreaterOrEqual(Level.WARN)) {
                        logger.setLevel(Level.WARN);
                    }
                }
            }
        }
    }
}
