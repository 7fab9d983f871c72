import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * What the restarted broker spent its CPU on around its unfencing, from a Java Flight Recorder recording of it (the
 * startup-profile probe): per second from its start to 15 s after unfencing, the execution samples of each thread
 * group, the share of the replica fetchers' samples whose top frame was interpreted, and MB fetched; then, for a few
 * stretches, the Kafka methods found most often on the samples' stacks (inclusive) and the top frames (self).
 *
 * <p>JFR's execution samples are taken of threads running Java code (every 10 ms under the {@code profile} settings),
 * so their count per second approximates each group's CPU in Java; the JIT compiler and the collector are not sampled
 * (the load test's {@code threads.csv} has them). The broker's clock is tied to the round's by its JVM's start time:
 * the load test's {@code restarted_at_s} is when it launched the process.
 *
 * <p>Usage (JDK 17's source launcher, nothing to build): {@code java docs/evidence/tools/StartupProfile.java ROUND_DIR
 * JFR_DIR}, where ROUND_DIR holds the load test's {@code rounds.csv} and {@code partitions.csv} (or {@code .csv.gz}) of one round, and
 * JFR_DIR the recordings of every JVM of that load test; the restarted broker's is the broker started last.
 */
public class StartupProfile {

    record Sample(double atS, String group, boolean interpretedTop, String topFrame, Set<String> kafkaMethods) {}

    /** The JVM's own CPU over one of JFR's one-second {@code jdk.CPULoad} periods, in cores: user and system time. */
    record Load(double userCores, double systemCores) {}

    public static void main(String[] args) throws IOException {
        Path round = Path.of(args[0]);
        Map<String, String> meta = Csv.rows(round.resolve("rounds.csv")).get(0);
        double restarted = Double.parseDouble(meta.get("restarted_at_s"));
        double unfenced = Double.parseDouble(meta.get("unfenced_at_s"));
        Path recording = restartedBroker(Path.of(args[1]));
        System.out.printf("recording %s; restarted %.1f s before unfencing%n", recording.getFileName(), unfenced - restarted);
        List<RecordedEvent> events = RecordingFile.readAllEvents(recording);
        List<Sample> samples = samples(events, restarted, unfenced);
        Map<Integer, Load> load = load(events, restarted, unfenced);
        Map<Integer, Double> fetched = fetchedPerSecond(Csv.rows(round.resolve("partitions.csv")), unfenced);
        perSecond(samples, load, fetched, (int) Math.floor(restarted - unfenced), 15);
        stretch(samples, "the 5 s before unfencing", -5, 0);
        stretch(samples, "+0 to +5 s", 0, 5);
        stretch(samples, "+10 to +15 s", 10, 15);
        perMegabyte(samples, fetched, 2, 5);
        perMegabyte(samples, fetched, 8, 12);
        fetcherLoad(events, restarted, unfenced);
    }

    /** JFR's {@code jdk.ThreadCPULoad} of the replica fetcher threads (10-s periods under {@code profile}), in cores. */
    static void fetcherLoad(List<RecordedEvent> events, double restarted, double unfenced) {
        Instant start = jvmStart(events);
        int threads = hardwareThreads(events);
        System.out.printf("%nreplica fetcher threads, CPU over the period ending at (s after unfencing): user / system cores%n");
        for (RecordedEvent e : events) {
            if (e.getEventType().getName().equals("jdk.ThreadCPULoad")
                    && String.valueOf(e.getThread("eventThread").getJavaName()).startsWith("ReplicaFetcherThread")) {
                double atS = restarted + (e.getStartTime().toEpochMilli() - start.toEpochMilli()) / 1000.0 - unfenced;
                if (atS <= 30) {
                    System.out.printf("  %+5.1f %-28s %.3f / %.3f%n", atS, e.getThread("eventThread").getJavaName(),
                            e.getFloat("user") * threads, e.getFloat("system") * threads);
                }
            }
        }
    }

    /** The broker JVM that started last: its recording names kafka.Kafka in the JVM's arguments. */
    static Path restartedBroker(Path dir) throws IOException {
        Path best = null;
        Instant latest = Instant.MIN;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".jfr")).toList()) {
                for (RecordedEvent e : RecordingFile.readAllEvents(f)) {
                    if (e.getEventType().getName().equals("jdk.JVMInformation")
                            && String.valueOf(e.getString("javaArguments")).contains("kafka.Kafka")
                            && e.getInstant("jvmStartTime").isAfter(latest)) {
                        latest = e.getInstant("jvmStartTime");
                        best = f;
                    }
                }
            }
        }
        if (best == null) {
            throw new IllegalArgumentException("no broker recording (kafka.Kafka in its arguments) in " + dir);
        }
        return best;
    }

    /** The machine's hardware threads: JFR's CPU loads are fractions of all of them. */
    static int hardwareThreads(List<RecordedEvent> events) {
        return events.stream()
                .filter(e -> e.getEventType().getName().equals("jdk.CPUInformation"))
                .mapToInt(e -> e.getInt("hwThreads"))
                .findFirst()
                .orElse(1);
    }

    static Instant jvmStart(List<RecordedEvent> events) {
        return events.stream()
                .filter(e -> e.getEventType().getName().equals("jdk.JVMInformation"))
                .findFirst()
                .orElseThrow()
                .getInstant("jvmStartTime");
    }

    /**
     * JFR's {@code jdk.CPULoad} per second after unfencing: the JVM's user and system time as fractions of every
     * hardware thread, times their number ({@code jdk.CPUInformation}); the JIT compiler included.
     */
    static Map<Integer, Load> load(List<RecordedEvent> events, double restarted, double unfenced) {
        Instant start = jvmStart(events);
        int threads = hardwareThreads(events);
        Map<Integer, Load> out = new HashMap<>();
        for (RecordedEvent e : events) {
            if (e.getEventType().getName().equals("jdk.CPULoad")) {
                double atS = restarted + (e.getStartTime().toEpochMilli() - start.toEpochMilli()) / 1000.0 - unfenced;
                out.put((int) Math.floor(atS - 0.5), new Load(e.getFloat("jvmUser") * threads, e.getFloat("jvmSystem") * threads));
            }
        }
        return out;
    }

    static List<Sample> samples(List<RecordedEvent> events, double restarted, double unfenced) {
        Instant start = jvmStart(events);
        List<Sample> out = new ArrayList<>();
        for (RecordedEvent e : events) {
            if (!e.getEventType().getName().equals("jdk.ExecutionSample")) {
                continue;
            }
            double sinceStart = (e.getStartTime().toEpochMilli() - start.toEpochMilli()) / 1000.0;
            double atS = restarted + sinceStart - unfenced;
            RecordedStackTrace stack = e.getStackTrace();
            if (stack == null || stack.getFrames().isEmpty()) {
                continue;
            }
            RecordedFrame top = stack.getFrames().get(0);
            Set<String> kafka = new HashSet<>();
            for (RecordedFrame f : stack.getFrames()) {
                String type = f.getMethod().getType().getName();
                if (type.startsWith("kafka.") || type.startsWith("org.apache.kafka.")) {
                    kafka.add(shortName(type) + "." + f.getMethod().getName());
                }
            }
            String thread = e.getThread("sampledThread").getJavaName();
            out.add(new Sample(atS, group(thread), "Interpreted".equals(top.getType()),
                    shortName(top.getMethod().getType().getName()) + "." + top.getMethod().getName(), kafka));
        }
        return out;
    }

    static String shortName(String type) {
        int dot = type.lastIndexOf('.');
        return dot < 0 ? type : type.substring(dot + 1);
    }

    /** Thread groups named as the load test's threads.csv names them, plus the broker's start-up threads. */
    static String group(String thread) {
        String t = thread == null ? "" : thread;
        if (t.startsWith("ReplicaFetcherThread")) return "replica_fetcher";
        if (t.contains("request-handler")) return "request_handler";
        if (t.contains("network-thread") || t.contains("acceptor")) return "network";
        if (t.contains("metadata") || t.contains("raft") || t.contains("controller")) return "metadata";
        if (t.contains("log-recovery") || t.contains("recovery") || t.equals("main")) return "startup";
        return "other";
    }

    static void perSecond(
            List<Sample> samples, Map<Integer, Load> load, Map<Integer, Double> fetched, int from, int to) {
        List<String> groups = List.of("replica_fetcher", "request_handler", "network", "metadata", "startup", "other");
        System.out.println();
        System.out.println("s after unfencing | samples: " + String.join(" ", groups)
                + " | fetcher samples with an interpreted top frame | MB fetched | JVM user / system cores");
        for (int s = from; s <= to; s++) {
            int second = s;
            Map<String, Integer> count = new HashMap<>();
            int fetcher = 0;
            int interpreted = 0;
            for (Sample x : samples) {
                if (Math.floor(x.atS()) == second) {
                    count.merge(x.group(), 1, Integer::sum);
                    if (x.group().equals("replica_fetcher")) {
                        fetcher++;
                        interpreted += x.interpretedTop() ? 1 : 0;
                    }
                }
            }
            StringBuilder line = new StringBuilder(String.format("%+4d |", s));
            groups.forEach(g -> line.append(String.format(" %4d", count.getOrDefault(g, 0))));
            Load l = load.get(s);
            line.append(String.format(" | %s | %.0f | %s", fetcher == 0 ? "-" : String.format("%.0f %%", 100.0 * interpreted / fetcher),
                    fetched.getOrDefault(s, 0.0) / 1e6, l == null ? "-" : String.format("%.2f / %.2f", l.userCores(), l.systemCores())));
            System.out.println(line);
        }
    }

    static void stretch(List<Sample> samples, String name, double from, double to) {
        List<Sample> in = samples.stream().filter(x -> x.atS() >= from && x.atS() < to).toList();
        System.out.printf("%n%s: %d samples%n", name, in.size());
        Map<String, Integer> groups = new TreeMap<>();
        in.forEach(x -> groups.merge(x.group(), 1, Integer::sum));
        groups.forEach((g, n) -> System.out.printf("  %-16s %5d  %3.0f %%%n", g, n, 100.0 * n / Math.max(1, in.size())));
        System.out.println("  Kafka methods on the stack (inclusive), replica fetchers:");
        top(in.stream().filter(x -> x.group().equals("replica_fetcher")).flatMap(x -> x.kafkaMethods().stream()), 14);
        System.out.println("  Kafka methods on the stack (inclusive), every other thread:");
        top(in.stream().filter(x -> !x.group().equals("replica_fetcher")).flatMap(x -> x.kafkaMethods().stream()), 10);
        System.out.println("  top frames (self), every thread:");
        top(in.stream().map(Sample::topFrame), 12);
    }

    static void top(Stream<String> names, int limit) {
        Map<String, Integer> count = new HashMap<>();
        names.forEach(n -> count.merge(n, 1, Integer::sum));
        count.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder()))
                .limit(limit)
                .forEach(e -> System.out.printf("    %5d  %s%n", e.getValue(), e.getKey()));
    }

    static void perMegabyte(List<Sample> samples, Map<Integer, Double> fetched, int from, int to) {
        long fetcher = samples.stream()
                .filter(x -> x.atS() >= from && x.atS() < to + 1 && x.group().equals("replica_fetcher"))
                .count();
        double mb = 0;
        for (int s = from; s <= to; s++) {
            mb += fetched.getOrDefault(s, 0.0) / 1e6;
        }
        System.out.printf("%nfetcher samples per MB fetched, +%d to +%d s: %d / %.0f MB = %.2f%n", from, to, fetcher, mb,
                mb == 0 ? Double.NaN : fetcher / mb);
    }

    /** The fall of bytes behind between the round's samples, spread evenly over the seconds between them. */
    static Map<Integer, Double> fetchedPerSecond(List<Map<String, String>> partitions, double unfenced) {
        Map<Integer, Double> out = new HashMap<>();
        double t0 = Double.NaN;
        double b0 = 0;
        for (Map<String, String> r : partitions) {
            double t1 = Double.parseDouble(r.get("at_s")) - unfenced;
            String behind = r.get("bytes_behind");
            double b1 = behind == null || behind.isEmpty() ? 0 : Double.parseDouble(behind);
            if (!Double.isNaN(t0) && t1 > t0 && b1 <= b0) {
                double perS = (b0 - b1) / (t1 - t0);
                for (int s = (int) Math.floor(t0); s < t1; s++) {
                    double overlap = Math.min(s + 1, t1) - Math.max(s, t0);
                    out.merge(s, perS * Math.max(overlap, 0), Double::sum);
                }
            }
            t0 = t1;
            b0 = b1;
        }
        return out;
    }

    /** The load test's CSV: a header, commas, fields quoted where they hold one. */
    static final class Csv {
        /** The rows of {@code file}, or of {@code file.gz} where only that exists (as the docs keep large ones). */
        static List<Map<String, String>> rows(Path file) throws IOException {
            List<String> lines;
            if (Files.exists(file)) {
                lines = Files.readAllLines(file);
            } else {
                Path gz = file.resolveSibling(file.getFileName() + ".gz");
                try (var in = new java.io.BufferedReader(new java.io.InputStreamReader(
                        new java.util.zip.GZIPInputStream(Files.newInputStream(gz)),
                        java.nio.charset.StandardCharsets.UTF_8))) {
                    lines = in.lines().toList();
                }
            }
            List<String> header = fields(lines.get(0));
            List<Map<String, String>> out = new ArrayList<>();
            for (String line : lines.subList(1, lines.size())) {
                List<String> f = fields(line);
                Map<String, String> row = new LinkedHashMap<>();
                for (int i = 0; i < header.size() && i < f.size(); i++) {
                    row.put(header.get(i), f.get(i));
                }
                out.add(row);
            }
            return out;
        }

        static List<String> fields(String line) {
            List<String> out = new ArrayList<>();
            StringBuilder cur = new StringBuilder();
            boolean quoted = false;
            for (int i = 0; i < line.length(); i++) {
                char c = line.charAt(i);
                if (c == '"') {
                    if (quoted && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                        cur.append('"');
                        i++;
                    } else {
                        quoted = !quoted;
                    }
                } else if (c == ',' && !quoted) {
                    out.add(cur.toString());
                    cur.setLength(0);
                } else {
                    cur.append(c);
                }
            }
            out.add(cur.toString());
            return out;
        }
    }
}
