package io.leaderpacer.agent.coordination;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Test support: one {@code pacer run} instance as a child JVM (so it can really be killed with SIGKILL or paused
 * with SIGSTOP), its properties file, its log, and the runs it has shown on {@code /status}.
 *
 * <p>Why collect runs: {@code /status} lists only the latest runs; polling it often and keeping every run by its
 * sequence number gives the test the instance's whole run history.
 */
final class AgentProcess implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    final String instance;
    private final Path properties;
    private final Path log;
    private final int port;
    private final Process process;
    /** Every run seen on /status, by sequence number. */
    private final Map<Long, JsonNode> runs = new TreeMap<>();
    /** Whether the process was sent SIGSTOP and not yet SIGCONT (so close can resume it before killing it). */
    private boolean stopped;

    private AgentProcess(String instance, Path properties, Path log, int port, Process process) {
        this.instance = instance;
        this.properties = properties;
        this.log = log;
        this.port = port;
        this.process = process;
    }

    /** Starts {@code pacer run --config <file>} with these properties plus this instance's id and a free HTTP port. */
    static AgentProcess start(String instance, Path dir, Map<String, String> settings) throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path props = dir.resolve(instance + ".properties");
        Map<String, String> all = new TreeMap<>(settings);
        all.put("pacer.instance.id", instance);
        all.put("pacer.http.port", Integer.toString(port));
        write(props, all);
        Path log = dir.resolve(instance + ".log");
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(
                        java,
                        "-Xmx256m",
                        "-XX:+UseSerialGC",
                        "-XX:TieredStopAtLevel=1",
                        "-cp",
                        classpath,
                        RunCommandMain.class.getName(),
                        "--config",
                        props.toString())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        return new AgentProcess(instance, props, log, port, p);
    }

    /** Replaces the policy/agent settings (the agent re-reads the file every run). */
    void rewrite(Map<String, String> settings) throws IOException {
        Map<String, String> all = new TreeMap<>(settings);
        all.put("pacer.instance.id", instance);
        all.put("pacer.http.port", Integer.toString(port));
        write(properties, all);
    }

    private static void write(Path file, Map<String, String> all) throws IOException {
        Properties p = new Properties();
        p.putAll(all);
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (var out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            p.store(out, null);
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The /status document now (and its runs remembered), or null when the endpoint does not answer. */
    JsonNode status() {
        try {
            HttpResponse<String> r = HTTP.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/status"))
                            .timeout(Duration.ofSeconds(3))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                return null;
            }
            JsonNode status = JSON.readTree(r.body());
            synchronized (runs) {
                for (JsonNode run : status.path("runs")) {
                    runs.put(run.get("sequence").asLong(), run);
                }
            }
            return status;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** The agent's state on /status (STANDBY, ACTIVE, ...), or "UNREACHABLE". */
    String state() {
        JsonNode s = status();
        return s == null ? "UNREACHABLE" : s.path("state").asText();
    }

    /** Every run seen so far, oldest first. */
    List<JsonNode> runs() {
        synchronized (runs) {
            return new ArrayList<>(runs.values());
        }
    }

    static long startedAtMs(JsonNode run) {
        return Instant.parse(run.get("startedAt").asText()).toEpochMilli();
    }

    static long elected(JsonNode run) {
        return run.path("outcomes").path("elected").asLong(0);
    }

    String log() throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8);
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL: no shutdown hook, no leaving the group, as a crash. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** SIGSTOP: the whole JVM freezes (heartbeats too), as a long GC pause or a suspended VM. */
    void pause() throws IOException, InterruptedException {
        signal("STOP");
        stopped = true;
    }

    void resume() throws IOException, InterruptedException {
        signal("CONT");
        stopped = false;
    }

    private void signal(String name) throws IOException, InterruptedException {
        int code = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
                .inheritIO()
                .start()
                .waitFor();
        if (code != 0) {
            throw new IOException("kill -" + name + " " + process.pid() + " exited with " + code);
        }
    }

    /**
     * Resumes a paused process, then kills it. An interrupt while waiting is kept for the caller (the process has
     * been sent SIGKILL all the same): a resource's close must not swallow one.
     */
    @Override
    public void close() throws IOException {
        try {
            if (stopped) {
                resume();
            }
            if (process.isAlive()) {
                process.destroyForcibly();
                process.waitFor();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
