package io.leaderpacer.dist;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.leaderpacer.agent.config.AgentProperties;
import io.leaderpacer.agent.config.AgentPropertiesFile;
import io.leaderpacer.agent.http.StatusServer;
import io.leaderpacer.agent.kafka.AgentPermissions;
import io.leaderpacer.agent.kafka.RequiredPermission;
import io.leaderpacer.cli.PacerCli;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.ParseResult;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * deploy/kubernetes, the kustomize manifests, hold together with the code they deploy: the container runs a command
 * the CLI accepts on the file the ConfigMap mounts, that file is one the agent loads, the probes and the scrape look
 * where the agent listens, every secret the file reads is mounted, the KafkaUser grants exactly the agent's ACLs,
 * and the PrometheusRule holds the alert rules the tarball ships. A manifest that drifts from the code deploys an
 * agent that refuses to start, is never scraped, or is restarted for ever.
 */
class KubernetesManifestsTest {

    private static final Path DIR = Path.of("..", "deploy", "kubernetes");
    private static final Path ALERTS = Path.of("..", "config", "pacer-alerts.yml");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    /** A value Kafka's config providers resolve: {@code ${provider:path:key}}. */
    private static final Pattern PROVIDED = Pattern.compile("\\$\\{(\\w+):([^:}]+):([^}]+)}");

    @Test
    void kustomization_listsEveryManifestOfTheFolder_eachOneResource() throws IOException {
        JsonNode k = read("kustomization.yaml");
        Set<String> listed = new TreeSet<>(texts(k.get("resources")));
        k.get("configMapGenerator").forEach(g -> listed.addAll(texts(g.get("files"))));
        listed.add("kustomization.yaml");
        try (Stream<Path> files = Files.list(DIR)) {
            Set<String> present =
                    files.map(f -> f.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
            assertThat(present).as("a manifest not listed is never applied").isEqualTo(listed);
        }
        for (String resource : texts(k.get("resources"))) {
            JsonNode r = read(resource);
            assertThat(r.path("apiVersion").asText()).as(resource).isNotEmpty();
            assertThat(r.path("kind").asText()).as(resource).isNotEmpty();
            assertThat(r.path("metadata").path("name").asText()).as(resource).isEqualTo("leader-pacer");
        }
    }

    @Test
    void container_runsTheAgent_onThePropertiesFileTheConfigMapMounts() throws IOException {
        JsonNode container = container();
        List<String> args = texts(container.get("args"));

        ParseResult parsed = PacerCli.commandLine().parseArgs(args.toArray(String[]::new));

        assertThat(parsed.subcommand().commandSpec().name()).isEqualTo("run");
        String config =
                parsed.subcommand().matchedOptionValue("--config", (Path) null).toString();
        JsonNode mount = mount(container, config);
        assertThat(mount.path("subPath").asText()).isEqualTo("pacer.properties");
        assertThat(volume(mount.path("name").asText())
                        .path("configMap")
                        .path("name")
                        .asText())
                .isEqualTo(read("kustomization.yaml")
                        .get("configMapGenerator")
                        .get(0)
                        .path("name")
                        .asText());
    }

    @Test
    void probesAndScrape_lookWhereTheAgentListens() throws IOException {
        AgentProperties props = properties();
        JsonNode container = container();
        JsonNode port = single(container.get("ports"), "http");

        assertThat(props.httpEnabled()).isTrue();
        assertThat(props.httpHost())
                .as("the kubelet and Prometheus reach the pod's address")
                .isEqualTo("0.0.0.0");
        assertThat(port.path("containerPort").asInt()).isEqualTo(props.httpPort());
        assertThat(container.at("/readinessProbe/httpGet/path").asText()).isEqualTo(StatusServer.HEALTH_PATH);
        assertThat(container.at("/readinessProbe/httpGet/port").asText()).isEqualTo("http");
        assertThat(container.at("/livenessProbe/tcpSocket/port").asText())
                .as("a run that fails (Kafka down) makes the pod unready, never restarts it")
                .isEqualTo("http");
        JsonNode scrape = read("pod-monitor.yaml").at("/spec/podMetricsEndpoints/0");
        assertThat(scrape.path("port").asText()).isEqualTo("http");
        assertThat(scrape.path("path").asText()).isEqualTo(StatusServer.METRICS_PATH);
        JsonNode servicePort = read("service.yaml").at("/spec/ports/0");
        assertThat(servicePort.path("port").asInt()).isEqualTo(props.httpPort());
        assertThat(servicePort.path("targetPort").asText()).isEqualTo("http");
    }

    @Test
    void everySelector_matchesThePodsLabels() throws IOException {
        JsonNode labels = read("deployment.yaml").at("/spec/template/metadata/labels");
        List<JsonNode> selectors = List.of(
                read("deployment.yaml").at("/spec/selector/matchLabels"),
                read("pod-disruption-budget.yaml").at("/spec/selector/matchLabels"),
                read("pod-monitor.yaml").at("/spec/selector/matchLabels"),
                read("service.yaml").at("/spec/selector"));
        for (JsonNode selector : selectors) {
            assertThat(selector.size()).isPositive();
            selector.properties()
                    .forEach(e -> assertThat(labels.path(e.getKey()).asText())
                            .as(e.getKey())
                            .isEqualTo(e.getValue().asText()));
        }
    }

    @Test
    void everySecretTheFileReads_isMountedFromASecret() throws IOException {
        AgentProperties props = properties();
        JsonNode container = container();
        List<String> paths = new ArrayList<>();
        props.clientProperties().values().forEach(v -> {
            Matcher m = PROVIDED.matcher(v);
            while (m.find()) {
                assertThat(props.clientProperties())
                        .as("the provider %s is declared", m.group(1))
                        .containsKey("config.providers." + m.group(1) + ".class");
                paths.add(m.group(2));
            }
        });
        paths.add(Path.of(props.clientProperties().get("ssl.truststore.location"))
                .getParent()
                .toString());

        assertThat(paths).as("the file reads its secrets from files").hasSizeGreaterThan(1);
        for (String path : paths) {
            JsonNode volume = volume(mount(container, path).path("name").asText());
            assertThat(volume.has("secret")).as("%s is a Secret", path).isTrue();
        }
    }

    @Test
    void kafkaUser_grantsExactlyTheAgentsAcls_withPacingOn() throws IOException {
        AgentProperties props = properties();
        JsonNode user = read("kafka-user.yaml");
        Set<String> granted = new TreeSet<>();
        for (JsonNode acl : user.at("/spec/authorization/acls")) {
            JsonNode r = acl.get("resource");
            String name = r.path("type").asText().equals("cluster")
                    ? RequiredPermission.CLUSTER_NAME
                    : r.path("name").asText();
            for (String op : texts(acl.get("operations"))) {
                granted.add(r.path("type").asText() + " " + name + " "
                        + r.path("patternType").asText("literal") + " " + op);
            }
        }
        Set<String> needed = Stream.concat(
                        AgentPermissions.required(props.groupId()).stream(), AgentPermissions.CATCH_UP_PACING.stream())
                .map(KubernetesManifestsTest::strimzi)
                .collect(Collectors.toCollection(TreeSet::new));

        assertThat(granted).isEqualTo(needed);
        assertThat(user.at("/spec/authentication/type").asText())
                .isEqualToIgnoringCase(props.clientProperties().get("sasl.mechanism"));
        String userSecret = props.clientProperties().get("sasl.jaas.config");
        assertThat(volume(mount(container(), providedPath(userSecret))
                                .path("name")
                                .asText())
                        .at("/secret/secretName")
                        .asText())
                .as("Strimzi's User Operator writes the Secret named after the KafkaUser")
                .isEqualTo(user.at("/metadata/name").asText());
    }

    @Test
    void prometheusRule_holdsTheAlertRulesTheTarballShips() throws IOException {
        assertThat(read("prometheus-rule.yaml").at("/spec/groups"))
                .isEqualTo(YAML.readTree(ALERTS.toFile()).get("groups"));
    }

    @Test
    void twoReplicas_oneAtATime() throws IOException {
        JsonNode spec = read("deployment.yaml").get("spec");

        assertThat(spec.path("replicas").asInt()).as("one active, one standby").isEqualTo(2);
        assertThat(spec.at("/strategy/rollingUpdate/maxUnavailable").asInt()).isEqualTo(1);
        assertThat(read("pod-disruption-budget.yaml").at("/spec/minAvailable").asInt())
                .isEqualTo(1);
    }

    /** The manifests as kustomize renders them: where kubectl is installed (not needed by the other tests). */
    @Test
    void kubectlKustomize_rendersEveryResource() throws Exception {
        assumeTrue(onPath("kubectl"), "kubectl is not installed");
        Process p = new ProcessBuilder("kubectl", "kustomize", DIR.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();

        List<String> kinds = new ArrayList<>();
        try (var docs = YAML.readerFor(JsonNode.class).readValues(out)) {
            while (docs.hasNext()) {
                JsonNode doc = (JsonNode) docs.next();
                kinds.add(doc.path("kind").asText());
                assertThat(doc.at("/metadata/namespace").asText()).isEqualTo("kafka");
            }
        }
        assertThat(kinds)
                .containsExactlyInAnyOrder(
                        "ConfigMap",
                        "Deployment",
                        "PodDisruptionBudget",
                        "Service",
                        "PodMonitor",
                        "PrometheusRule",
                        "KafkaUser");
    }

    private static String strimzi(RequiredPermission p) {
        String type = p.resourceType() == ResourceType.TRANSACTIONAL_ID
                ? "transactionalId"
                : p.resourceType().name().toLowerCase(java.util.Locale.ROOT);
        String pattern = p.patternType() == PatternType.PREFIXED ? "prefix" : "literal";
        return type + " " + p.resourceName() + " " + pattern + " " + camel(p.operation());
    }

    /** Strimzi's spelling of an ACL operation: DESCRIBE_CONFIGS is DescribeConfigs. */
    private static String camel(AclOperation op) {
        return Stream.of(op.name().split("_"))
                .map(w -> w.charAt(0) + w.substring(1).toLowerCase(java.util.Locale.ROOT))
                .collect(Collectors.joining());
    }

    private static String providedPath(String value) {
        Matcher m = PROVIDED.matcher(value);
        assertThat(m.find()).as(value).isTrue();
        return m.group(2);
    }

    private static AgentProperties properties() throws IOException {
        return AgentPropertiesFile.parse("pacer.properties", Files.readString(DIR.resolve("pacer.properties")));
    }

    private static JsonNode container() throws IOException {
        JsonNode containers = read("deployment.yaml").at("/spec/template/spec/containers");
        assertThat(containers.size()).isEqualTo(1);
        return containers.get(0);
    }

    /** The container's volume mount at this path, or the one holding it. */
    private static JsonNode mount(JsonNode container, String path) {
        for (JsonNode m : container.get("volumeMounts")) {
            String at = m.path("mountPath").asText();
            if (path.equals(at) || path.startsWith(at + "/")) {
                return m;
            }
        }
        throw new AssertionError("nothing is mounted at " + path);
    }

    private static JsonNode volume(String name) throws IOException {
        return single(read("deployment.yaml").at("/spec/template/spec/volumes"), name);
    }

    private static JsonNode single(JsonNode list, String name) {
        List<JsonNode> found = new ArrayList<>();
        list.forEach(n -> {
            if (n.path("name").asText().equals(name)) {
                found.add(n);
            }
        });
        assertThat(found).as(name).hasSize(1);
        return found.get(0);
    }

    private static List<String> texts(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static JsonNode read(String file) {
        try {
            return YAML.readTree(DIR.resolve(file).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(file, e);
        }
    }

    private static boolean onPath(String command) {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
                .anyMatch(d -> Files.isExecutable(Path.of(d, command)));
    }
}
