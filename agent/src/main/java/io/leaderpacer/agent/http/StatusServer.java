package io.leaderpacer.agent.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.leaderpacer.agent.PacerAgent;
import io.leaderpacer.agent.config.SecretRedactor;
import io.leaderpacer.agent.core.AgentState;
import io.leaderpacer.agent.core.RunRecord;
import io.leaderpacer.agent.metrics.PacerMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Serves {@code /metrics}, {@code /status} and {@code /healthz} for one agent, read-only.
 *
 * <p>Why: Prometheus scrapes {@code /metrics}; an operator (or a script) reads {@code /status} to see why a broker
 * is gated and what the last runs did; an orchestrator probes {@code /healthz}. Any method other than GET or HEAD
 * gets 405: nothing about the agent can be changed over HTTP.
 *
 * <p>{@code /healthz} answers 200 while the agent runs and its last run succeeded (or it has not run yet), and 503
 * with the reason while it is still making contact, refused to run, is stopped, or its last run failed.
 */
public final class StatusServer implements AutoCloseable {

    /** Prometheus's scrape path. */
    public static final String METRICS_PATH = "/metrics";
    /** The gate table and last runs, as JSON ({@code pacer status} reads it). */
    public static final String STATUS_PATH = "/status";
    /** The orchestrator's probe: 200 or 503 with the reason. */
    public static final String HEALTH_PATH = "/healthz";

    private static final Logger LOG = LoggerFactory.getLogger(StatusServer.class);
    private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

    private final HttpServer server;
    /** One thread: the resources are cheap, and one scrape at a time is plenty. */
    private final ExecutorService executor;

    private final PacerAgent agent;
    private final PacerMetrics metrics;
    /** Shown in /status; already redacted by the caller. */
    private final Map<String, String> redactedClientProperties;

    private final ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private StatusServer(
            HttpServer server, PacerAgent agent, PacerMetrics metrics, Map<String, String> redactedClient) {
        this.server = server;
        this.agent = agent;
        this.metrics = metrics;
        this.redactedClientProperties = Collections.unmodifiableMap(new LinkedHashMap<>(redactedClient));
        this.executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "leader-pacer-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", this::handle);
    }

    /**
     * Binds and starts serving.
     *
     * @param host                     address to bind (127.0.0.1 unless the operator chose otherwise)
     * @param port                     port, 0 = any free port (see {@link #port()})
     * @param redactedClientProperties client properties to show, with secrets already redacted
     * @throws IOException when the address cannot be bound
     */
    public static StatusServer start(
            String host, int port, PacerAgent agent, PacerMetrics metrics, Map<String, String> redactedClientProperties)
            throws IOException {
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(metrics, "metrics");
        HttpServer http = HttpServer.create(new InetSocketAddress(host, port), 16);
        StatusServer s = new StatusServer(http, agent, metrics, redactedClientProperties);
        http.start();
        LOG.info("serving /metrics, /status and /healthz on http://{}:{}/", host, s.port());
        return s;
    }

    /** The port actually bound. */
    public int port() {
        return server.getAddress().getPort();
    }

    public InetSocketAddress address() {
        return server.getAddress();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            if (!method.equals("GET") && !method.equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                respond(exchange, 405, "text/plain; charset=utf-8", "read-only endpoint: use GET\n");
                return;
            }
            switch (exchange.getRequestURI().getPath()) {
                case METRICS_PATH -> respond(exchange, 200, PROMETHEUS_TEXT, metrics.scrape());
                case STATUS_PATH ->
                    respond(
                            exchange,
                            200,
                            "application/json",
                            json.writeValueAsString(StatusReport.of(agent, redactedClientProperties)) + "\n");
                case HEALTH_PATH -> {
                    Optional<String> problem = healthProblem();
                    respond(
                            exchange,
                            problem.isEmpty() ? 200 : 503,
                            "text/plain; charset=utf-8",
                            problem.map(p -> "unhealthy: " + p).orElse("ok") + "\n");
                }
                default ->
                    respond(
                            exchange,
                            404,
                            "text/plain; charset=utf-8",
                            "not found; try /metrics, /status or /healthz\n");
            }
        } catch (RuntimeException e) {
            LOG.warn("HTTP request failed: {}", SecretRedactor.none().describe(e));
        }
    }

    private Optional<String> healthProblem() {
        AgentState state = agent.state();
        switch (state) {
            case STANDBY:
                // A standby is healthy: it is ready to take over.
                return Optional.empty();
            case RUNNING:
            case ACTIVE: {
                Optional<RunRecord> last = agent.lastRun();
                if (last.isPresent() && !last.get().succeeded()) {
                    return Optional.of(
                            "last run failed: " + last.get().failure().orElse(""));
                }
                return Optional.empty();
            }
            case STARTING:
                return Optional.of("starting"
                        + agent.startupProblem().map(p -> " (" + p + ")").orElse(""));
            default:
                return Optional.of("agent is " + state.name().toLowerCase(Locale.ROOT));
        }
    }

    private static void respond(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }
}
