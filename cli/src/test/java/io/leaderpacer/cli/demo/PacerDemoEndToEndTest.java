package io.leaderpacer.cli.demo;

import io.leaderpacer.cli.PacerCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code pacer demo --quick} end to end, on the real in-JVM Kafka cluster: the report is written,
 * and the recorded wait-for-sync timeline keeps the gate's promise.
 */
class PacerDemoEndToEndTest {

    /** The demo's wait-for-sync threshold, in percent. */
    private static final double THRESHOLD = DemoSettings.quick().waitForSync().thresholdPercent();

    /** One row of timeline.csv. */
    private record Row(String policy, long timeMs, long restartMs, boolean active, int outOfSync, int preferred,
                       String gate, int leaders, int electionsToRestarted) {

        double outOfSyncPercent() {
            return preferred == 0 ? 0 : 100.0 * outOfSync / preferred;
        }

        boolean afterRestart() {
            return timeMs >= restartMs;
        }
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void quickDemo_writesTheReportAndNeverGivesLeadershipToTheBrokerWhileOverTheThreshold(@TempDir Path dir)
            throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cmd = PacerCli.commandLine();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));

        int status = cmd.execute("demo", "--quick", "--out", dir.toString());

        assertThat(status).as("exit status; stderr:%n%s%nstdout:%n%s", err, out).isZero();
        assertThat(dir.resolve("report.html")).exists();
        assertThat(Files.readString(dir.resolve("report.html"))).contains("wait-for-sync", "immediate");
        assertThat(out.toString()).contains("== comparison", "report:");

        List<Row> paced = rows(dir.resolve("timeline.csv"), DemoScenario.PACED);
        List<Row> overThreshold = paced.stream()
                .filter(r -> r.afterRestart() && r.active() && r.outOfSyncPercent() > THRESHOLD).toList();
        // The scenario must actually exercise the gate, or the promise below would hold vacuously.
        assertThat(overThreshold).as("runs that found the restarted broker back but over the threshold").isNotEmpty();
        assertThat(overThreshold).allSatisfy(r -> {
            assertThat(r.gate()).isEqualTo("GATED");
            assertThat(r.electionsToRestarted()).as("elections to the broker at %d ms", r.timeMs()).isZero();
        });
        // Independently of what the agent reports it did: the next snapshot shows no leadership gained.
        for (int i = 0; i + 1 < paced.size(); i++) {
            Row now = paced.get(i);
            if (now.afterRestart() && now.outOfSyncPercent() > THRESHOLD) {
                assertThat(paced.get(i + 1).leaders()).as("leaders after the run at %d ms", now.timeMs())
                        .isLessThanOrEqualTo(now.leaders());
            }
        }
        // And leadership did come back, in batches of at most max.per.run.
        int cap = DemoSettings.quick().waitForSync().maxPerRun();
        assertThat(paced).anySatisfy(r -> assertThat(r.electionsToRestarted()).isPositive());
        assertThat(paced).allSatisfy(r -> assertThat(r.electionsToRestarted()).isLessThanOrEqualTo(cap));
        Row last = paced.get(paced.size() - 1);
        assertThat(last.leaders() + last.electionsToRestarted()).isEqualTo(last.preferred());
    }

    private static List<Row> rows(Path csv, String policy) throws Exception {
        List<String> lines = Files.readAllLines(csv);
        assertThat(lines.get(0)).isEqualTo(TimelineCsv.HEADER);
        List<Row> out = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            if (f[0].equals(policy)) {
                out.add(new Row(f[0], Long.parseLong(f[1]), Long.parseLong(f[2]), Boolean.parseBoolean(f[3]),
                        Integer.parseInt(f[4]), Integer.parseInt(f[5]), f[6], Integer.parseInt(f[7]),
                        Integer.parseInt(f[9])));
            }
        }
        assertThat(out).as("%s rows in %s", policy, csv).isNotEmpty();
        return out;
    }
}
