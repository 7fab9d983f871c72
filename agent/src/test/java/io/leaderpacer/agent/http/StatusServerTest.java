package io.leaderpacer.agent.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.leaderpacer.agent.PacerAgent;
import io.leaderpacer.agent.metrics.PacerMetrics;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The endpoint's contract, on an agent that has not started (no cluster needed). */
class StatusServerTest {

    private final HttpClient http = HttpClient.newHttpClient();
    private Admin admin;
    private PacerAgent agent;
    private PacerMetrics metrics;
    private StatusServer server;

    @BeforeEach
    void start() throws Exception {
        admin = Admin.create(Map.of("bootstrap.servers", "127.0.0.1:1"));
        agent = PacerAgent.builder(admin).clusterLabel("127.0.0.1:1").build();
        metrics = PacerMetrics.prometheusOnly();
        server = StatusServer.start("127.0.0.1", 0, agent, metrics, Map.of("bootstrap.servers", "127.0.0.1:1"));
    }

    @AfterEach
    void stop() {
        server.close();
        agent.close();
        metrics.close();
        admin.close();
    }

    @Test
    void ephemeralPort_isBoundOnLocalhost() {
        assertThat(server.port()).isPositive();
        assertThat(server.address().getAddress().isLoopbackAddress()).isTrue();
    }

    @Test
    void writeMethods_areRejected() throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(uri("/status"))
                        .POST(HttpRequest.BodyPublishers.ofString("{}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(405);
        assertThat(r.headers().firstValue("Allow")).contains("GET, HEAD");
        assertThat(http.send(
                                HttpRequest.newBuilder(uri("/metrics")).DELETE().build(),
                                HttpResponse.BodyHandlers.ofString())
                        .statusCode())
                .isEqualTo(405);
    }

    @Test
    void unknownPath_isNotFound() throws Exception {
        assertThat(get("/admin").statusCode()).isEqualTo(404);
    }

    @Test
    void agentNotRunning_isUnhealthy() throws Exception {
        HttpResponse<String> r = get("/healthz");
        assertThat(r.statusCode()).isEqualTo(503);
        assertThat(r.body()).isEqualTo("unhealthy: agent is new\n");
    }

    @Test
    void status_isJsonWithStateClusterAndNoRunsYet() throws Exception {
        HttpResponse<String> r = get("/status");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).contains("application/json");
        JsonNode json = new ObjectMapper().readTree(r.body());
        assertThat(json.get("state").asText()).isEqualTo("NEW");
        assertThat(json.get("cluster").asText()).isEqualTo("127.0.0.1:1");
        assertThat(json.get("runs")).isEmpty();
        assertThat(json.get("brokers")).isEmpty();
    }

    @Test
    void metrics_areInPrometheusTextFormat() throws Exception {
        HttpResponse<String> r = get("/metrics");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).get().asString().startsWith("text/plain");
        assertThat(r.body()).contains("# TYPE GatedBrokerCount gauge");
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }
}
