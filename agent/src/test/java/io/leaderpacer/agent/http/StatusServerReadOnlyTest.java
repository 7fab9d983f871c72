package io.leaderpacer.agent.http;

import io.leaderpacer.agent.PacerAgent;
import io.leaderpacer.agent.core.AgentState;
import io.leaderpacer.agent.metrics.PacerMetrics;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTTP endpoint cannot change anything: every method but GET and HEAD, on every path (known or not), gets 405
 * with {@code Allow: GET, HEAD}, and what the endpoint shows afterwards is exactly what it showed before.
 */
class StatusServerReadOnlyTest {

    private static final List<String> PATHS =
            List.of("/", "/status", "/metrics", "/healthz", "/config", "/status/runs");
    private static final List<String> WRITE_METHODS = List.of("POST", "PUT", "DELETE", "PATCH");
    /** Bodies that would be commands if the endpoint took any. */
    private static final String BODY = "{\"state\":\"STOPPED\",\"preferred.leader.deprioritized.list\":\"1\"}";

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static Admin admin;
    private static PacerAgent agent;
    private static PacerMetrics metrics;
    private static StatusServer server;

    @BeforeAll
    static void start() throws Exception {
        admin = Admin.create(Map.of("bootstrap.servers", "127.0.0.1:1"));
        agent = PacerAgent.builder(admin).clusterLabel("127.0.0.1:1").build();
        metrics = PacerMetrics.prometheusOnly();
        server = StatusServer.start("127.0.0.1", 0, agent, metrics, Map.of("bootstrap.servers", "127.0.0.1:1"));
    }

    @AfterAll
    static void stop() {
        server.close();
        agent.close();
        metrics.close();
        admin.close();
    }

    static Stream<Arguments> writeRequests() {
        return WRITE_METHODS.stream().flatMap(m -> PATHS.stream().map(p -> Arguments.of(m, p)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("writeRequests")
    void writeMethod_isRejectedAndChangesNothing(String method, String path) throws Exception {
        String statusBefore = send("GET", "/status").body();
        String metricsBefore = send("GET", "/metrics").body();

        HttpResponse<String> r = send(method, path);

        assertThat(r.statusCode()).isEqualTo(405);
        assertThat(r.headers().firstValue("Allow")).contains("GET, HEAD");
        assertThat(r.body()).doesNotContain("STOPPED");
        assertThat(send("GET", "/status").body()).isEqualTo(statusBefore);
        assertThat(send("GET", "/metrics").body()).isEqualTo(metricsBefore);
        assertThat(agent.state()).isEqualTo(AgentState.NEW);
        assertThat(agent.history()).isEmpty();
    }

    private static HttpResponse<String> send(String method, String path) throws Exception {
        HttpRequest.BodyPublisher body = method.equals("GET") || method.equals("DELETE")
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(BODY);
        return HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                        .method(method, body)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
