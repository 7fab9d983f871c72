package io.leaderpacer.agent.cli;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.leaderpacer.agent.http.StatusReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * {@code pacer status}: a running agent's {@code /status}, as a terminal table.
 *
 * <p>Why: at 3 a.m. an operator wants the gate per broker, the last runs and the problems in one command, without
 * curl and jq, and a script wants an exit status that says whether anything needs attention.
 */
@Command(name = "status",
        mixinStandardHelpOptions = true,
        description = {"Show a running agent's state, problems, gate table and last runs, from its /status.",
            "Reads the agent's HTTP endpoint (pacer.http.host and pacer.http.port of its properties file)."},
        footer = {"", "Exit status: 0 shown, no problem; 1 shown, with problems (start-up, configuration, refused,"
                + " last run failed); 2 bad usage; 3 the agent could not be reached or gave no status."})
public final class StatusCommand implements Callable<Integer> {

    public static final int EXIT_PROBLEMS = 1;
    public static final int EXIT_UNREACHABLE = 3;

    @Spec
    private CommandSpec spec;

    @Option(names = "--url", paramLabel = "URL", defaultValue = "http://127.0.0.1:9180",
            description = "The agent's HTTP endpoint (default: ${DEFAULT-VALUE}).")
    private URI url;

    @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "5000",
            description = "How long to wait for the agent's answer (default: ${DEFAULT-VALUE}).")
    private long timeoutMs;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        URI status = url.resolve("/status");
        Duration timeout = Duration.ofMillis(Math.max(1, timeoutMs));
        String body;
        try {
            HttpClient client = HttpClient.newBuilder().connectTimeout(timeout).build();
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(status).timeout(timeout).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                err.println("Error: " + status + " answered HTTP " + response.statusCode() + "; is this a Leader Pacer agent?");
                return EXIT_UNREACHABLE;
            }
            body = response.body();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("Error: interrupted");
            return EXIT_UNREACHABLE;
        } catch (IOException | IllegalArgumentException e) {
            err.println("Error: cannot reach the agent at " + status + " within " + timeout.toMillis() + " ms ("
                    + (e.getMessage() == null ? "no answer" : e.getMessage())
                    + "); is pacer run running there with pacer.http.enabled=true?");
            return EXIT_UNREACHABLE;
        }
        StatusReport report;
        try {
            report = new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .readValue(body, StatusReport.class);
        } catch (IOException e) {
            err.println("Error: " + status + " did not answer with an agent's status; is this a Leader Pacer agent?");
            return EXIT_UNREACHABLE;
        }
        StatusText.print(out, url.toString(), report);
        return StatusText.problems(report).isEmpty() ? 0 : EXIT_PROBLEMS;
    }
}
