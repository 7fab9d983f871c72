package io.leaderpacer.compat;

import io.leaderpacer.cluster.ProcessKafkaCluster;
import org.junit.jupiter.api.Test;

class SmokeTest {
    @Test
    void start() throws Exception {
        String v = System.getProperty("smoke.version", "3.9.1");
        try (ProcessKafkaCluster c = ProcessKafkaCluster.builder().brokers(3).brokerHeap("384m")
                .classpath(KafkaVersions.classpath(v)).startTimeout(java.time.Duration.ofSeconds(90)).build()) {
            c.start();
            System.out.println("UP " + c.bootstrapServers());
            System.out.println(java.nio.file.Files.readString(c.logFile(0)).lines().limit(30).toList());
        }
    }
}
