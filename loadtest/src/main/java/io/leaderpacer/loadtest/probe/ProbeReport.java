package io.leaderpacer.loadtest.probe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** The probe's output: a Markdown table of the restarts and a CSV of every look. */
final class ProbeReport {

    private ProbeReport() {}

    static String table(List<CatchUpResult> results) {
        StringBuilder sb = new StringBuilder("| ")
                .append(String.join(" | ", CatchUpResult.HEADER))
                .append(" |\n|");
        sb.append("---|".repeat(CatchUpResult.HEADER.size())).append('\n');
        for (CatchUpResult r : results) {
            sb.append("| ").append(String.join(" | ", r.row())).append(" |\n");
        }
        return sb.toString();
    }

    static void write(List<CatchUpResult> results, ProbeSettings s, Path dir, String command) throws IOException {
        String head = String.format(
                Locale.ROOT,
                "# Throttle probe%n%nCommand: `%s`%n%nBroker %d restarted; %d partitions"
                        + " per case, RF 3; %.0f MiB backlog; throttled cases at %.1f MiB/s; capped cases at %.2f core.%n%n",
                command,
                s.restartedBroker(),
                s.partitions(),
                s.backlogBytes() / 1048576.0,
                s.rateBytes() / 1048576.0,
                s.cpuCapCores());
        Files.writeString(dir.resolve("catch-up.md"), head + table(results), StandardCharsets.UTF_8);
        StringBuilder csv = new StringBuilder("case,phase,at_s,hosted_bytes,in_isr,rate_bytes\n");
        for (CatchUpResult r : results) {
            for (CatchUpSample x : r.samples()) {
                csv.append(r.caseName())
                        .append(',')
                        .append('"')
                        .append(r.phase())
                        .append('"')
                        .append(',')
                        .append(String.format(Locale.ROOT, "%.3f", x.atMs() / 1000.0))
                        .append(',')
                        .append(x.hostedBytes() < 0 ? "" : Long.toString(x.hostedBytes()))
                        .append(',')
                        .append(x.inIsr())
                        .append(',')
                        .append(x.rateBytes() < 0 ? "" : Long.toString(x.rateBytes()))
                        .append('\n');
            }
        }
        Files.writeString(dir.resolve("catch-up.csv"), csv.toString(), StandardCharsets.UTF_8);
    }
}
