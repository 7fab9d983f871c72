package io.leaderpacer.agent.cli;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.leaderpacer.agent.config.SecretRedactor;
import io.leaderpacer.agent.coordination.ActiveRole;
import io.leaderpacer.agent.core.TimeoutMs;
import io.leaderpacer.agent.http.StatusReport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.KafkaException;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * {@code pacer status}: a running agent's {@code /status}, as a terminal table.
 *
 * <p>Why: at 3 a.m. an operator wants the gate per broker, the last runs and the problems in one command, without
 * curl and jq, and a script wants an exit status that says whether anything needs attention.
 */
@Command(
        name = "status",
        mixinStandardHelpOptions = true,
        description = {
            "Show a running agent's state, problems, gate table and last runs, from its /status.",
            "Reads the endpoint given by --url (default " + StatusCommand.DEFAULT_URL
                    + ", an agent on this host with the default"
                    + " pacer.http.port), or, with --bootstrap-server, finds the group's active instance through the"
                    + " cluster."
        },
        footer = {
            "",
            "Exit status: 0 shown, no problem; 1 shown, with problems (start-up, configuration, refused,"
                    + " last run failed); 2 bad usage; 3 the agent could not be reached or gave no status."
        })
public final class StatusCommand implements Callable<Integer> {

    public static final int EXIT_PROBLEMS = 1;
    public static final int EXIT_UNREACHABLE = 3;
    /** Where an agent on this host listens unless configured otherwise. */
    static final String DEFAULT_URL = "http://127.0.0.1:9180";

    @Spec
    private CommandSpec spec;

    /** Where the agent is: its URL, or the cluster whose active instance to find. */
    @ArgGroup(exclusive = true)
    private Target target = new Target();

    /** The two ways to name the agent. */
    static final class Target {
        @Option(
                names = "--url",
                paramLabel = "URL",
                description = "The agent's HTTP endpoint (default: " + DEFAULT_URL + ").")
        URI url;

        @Option(
                names = "--bootstrap-server",
                paramLabel = "HOST:PORT[,HOST:PORT...]",
                description = "Find the active instance of the group through this cluster, and read its endpoint.")
        String bootstrapServer;
    }

    @Option(
            names = "--command-config",
            paramLabel = "FILE",
            description = "With --bootstrap-server: client properties (TLS, SASL, ...) used to reach the cluster.")
    private Path commandConfig;

    @Option(
            names = "--group",
            paramLabel = "GROUP",
            defaultValue = ActiveRole.DEFAULT_GROUP_ID,
            description = "With --bootstrap-server: the agents' pacer.group.id (default: ${DEFAULT-VALUE}).")
    private String group;

    @Option(
            names = "--http-port",
            paramLabel = "PORT",
            defaultValue = "9180",
            description = "With --bootstrap-server: the agents' pacer.http.port (default: ${DEFAULT-VALUE}).")
    private int httpPort;

    @Option(
            names = "--timeout-ms",
            paramLabel = "MS",
            defaultValue = "5000",
            description = "How long to wait for the agent's answer (default: ${DEFAULT-VALUE}).")
    private long timeoutMs;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Duration timeout = Duration.ofMillis(Math.max(1, timeoutMs));
        URI url = target.url != null ? target.url : URI.create(DEFAULT_URL);
        if (target.bootstrapServer != null) {
            Optional<URI> found = locate(err, timeout);
            if (found.isEmpty()) {
                return EXIT_UNREACHABLE;
            }
            url = found.get();
        }
        URI status = url.resolve("/status");
        String body;
        try {
            HttpClient client = HttpClient.newBuilder().connectTimeout(timeout).build();
            HttpResponse<String> response = client.send(
                    HttpRequest.newBuilder(status).timeout(timeout).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                err.println("Error: " + status + " answered HTTP " + response.statusCode()
                        + "; is this a Leader Pacer agent?");
                return EXIT_UNREACHABLE;
            }
            body = response.body();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("Error: interrupted");
            return EXIT_UNREACHABLE;
        } catch (IOException | IllegalArgumentException e) {
            err.println("Error: cannot reach the agent at " + status + ": " + unreachable(e, timeout)
                    + "; is pacer run running there with pacer.http.enabled=true?");
            return EXIT_UNREACHABLE;
        }
        StatusReport report;
        try {
            report = new ObjectMapper()
                    .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .readValue(body, StatusReport.class);
        } catch (IOException e) {
            err.println("Error: " + status + " did not answer with an agent's status; is this a Leader Pacer agent?");
            return EXIT_UNREACHABLE;
        }
        StatusText.print(out, url.toString(), report);
        return StatusText.problems(report).isEmpty() ? 0 : EXIT_PROBLEMS;
    }

    /**
     * Why the endpoint could not be read, in words: a refused connection is told apart from silence, since the
     * first means nothing listens there and the second a host or network that does not answer.
     */
    static String unreachable(Exception e, Duration timeout) {
        Throwable cause = e;
        while (cause != null) {
            if (cause instanceof ConnectException && !(cause instanceof HttpConnectTimeoutException)) {
                return "connection refused";
            }
            if (cause instanceof HttpTimeoutException || cause instanceof SocketTimeoutException) {
                return "no answer within " + timeout.toMillis() + " ms";
            }
            cause = cause.getCause();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /** The active instance's endpoint, found through the cluster; empty (with the error printed) when none is. */
    private Optional<URI> locate(PrintWriter err, Duration timeout) {
        Map<String, Object> client = new HashMap<>();
        if (commandConfig != null) {
            Properties file = new Properties();
            try (InputStream in = Files.newInputStream(commandConfig)) {
                file.load(in);
            } catch (IOException | IllegalArgumentException e) {
                err.println("Error: --command-config " + commandConfig + ": cannot be read");
                return Optional.empty();
            }
            file.stringPropertyNames().forEach(k -> client.put(k, file.getProperty(k)));
        }
        client.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, target.bootstrapServer);
        // Kafka refuses an API time-out below the request time-out: both follow --timeout-ms.
        client.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, TimeoutMs.of(timeout));
        client.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, TimeoutMs.of(timeout.toMillis() / 2));
        Map<String, String> printable = new HashMap<>();
        client.forEach((k, v) -> printable.put(k, String.valueOf(v)));
        try (Admin admin = Admin.create(client)) {
            Optional<ActiveInstanceLocator.Active> active = ActiveInstanceLocator.find(admin, group, timeout);
            if (active.isEmpty()) {
                err.println("Error: no active instance in group " + group + " of the cluster at "
                        + target.bootstrapServer + " (no agent running, or a takeover under way)");
                return Optional.empty();
            }
            String host = active.get().host().contains(":")
                    ? "[" + active.get().host() + "]"
                    : active.get().host();
            return Optional.of(URI.create("http://" + host + ":" + httpPort));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("Error: interrupted");
            return Optional.empty();
        } catch (ExecutionException | TimeoutException | KafkaException e) {
            err.println("Error: "
                    + ClusterErrors.describe(
                            e, target.bootstrapServer, timeout, SecretRedactor.of(printable), printable));
            return Optional.empty();
        }
    }
}
