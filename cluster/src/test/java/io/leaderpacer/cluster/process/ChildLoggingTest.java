package io.leaderpacer.cluster.process;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The children's logging configuration: one file per binding a Kafka class path may hold (Logback, Log4j 2 as Kafka
 * 4.x ships it, reload4j as Kafka 3.x ships it), each selected by its own system property. That a 3.9.1 and a 4.4.0
 * broker really log their registration line through them is checked by the compat module on real clusters.
 */
class ChildLoggingTest {

    @TempDir
    Path dir;

    @Test
    void writeInto_writesAFileForEachBinding_andOptionsThatSelectEach() throws Exception {
        List<String> options = ChildLogging.writeInto(dir);

        assertThat(dir.resolve("logback.xml")).exists();
        assertThat(dir.resolve("log4j2.xml")).exists();
        assertThat(dir.resolve("log4j.properties")).exists();
        assertThat(options)
                .contains(
                        "-Dlogback.configurationFile=" + dir.resolve("logback.xml"),
                        "-Dlog4j2.configurationFile=" + dir.resolve("log4j2.xml"),
                        // Log4j 1 reads a URL, not a path.
                        "-Dlog4j.configuration="
                                + dir.resolve("log4j.properties").toUri());
    }

    @Test
    void log4j1_rootAtWarnToStandardOutput_kafkasStartupLoggersAtInfo() throws Exception {
        Properties p = new Properties();
        ChildLogging.writeInto(dir);
        p.load(new StringReader(Files.readString(dir.resolve("log4j.properties"))));

        assertThat(p.getProperty("log4j.rootLogger")).isEqualTo("WARN, OUT");
        assertThat(p.getProperty("log4j.appender.OUT")).isEqualTo("org.apache.log4j.ConsoleAppender");
        assertThat(p.getProperty("log4j.logger.kafka.server.BrokerLifecycleManager"))
                .as("the logger of the registration line the cluster waits for")
                .isEqualTo("INFO");
        for (String name : ChildLogging.INFO_LOGGERS) {
            assertThat(p.getProperty("log4j.logger." + name)).as(name).isEqualTo("INFO");
        }
    }
}
