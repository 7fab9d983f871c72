package io.leaderpacer.loadtest.result;

import io.leaderpacer.loadtest.load.SecondSample;
import io.leaderpacer.loadtest.observe.AgentRunSample;
import io.leaderpacer.loadtest.observe.PacingSample;
import io.leaderpacer.loadtest.observe.PartitionSample;
import io.leaderpacer.loadtest.steady.SteadyWindow;
import io.leaderpacer.report.AtomicFiles;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The load test's raw data as CSV, one file per kind of sample, every round in each (its policy and round number in
 * the first columns), so that a spreadsheet, a notebook or the simulator's calibration can read them.
 *
 * <p>Files: {@code rounds.csv} (one line per round), {@code latency-seconds.csv} (per second and view: count,
 * failures, P50, P99, max), {@code latency-buckets.csv} (the steady and window distributions), {@code partitions.csv}
 * (the restarted broker's partitions over time), {@code cpu.csv} (its CPU use over time), {@code agent-runs.csv}
 * (every agent run: elections, gate), {@code steady-windows.csv} (each round's steady phase in windows of 5 s, per
 * view: the pooled steady reference is their median), {@code pacing.csv} (catch-up pacing's looks at the restarted
 * broker: the rate set, bytes behind, why).
 */
public final class CsvFiles {

    private CsvFiles() {
    }

    /** Writes every file into {@code dir}, each whole or not at all. */
    public static void write(LoadTestResult result, Path dir) throws IOException {
        AtomicFiles.write(dir.resolve("rounds.csv"), rounds(result));
        StringBuilder seconds = new StringBuilder("policy,round,second,view,count,failed,p50_ms,p99_ms,max_ms\n");
        StringBuilder buckets = new StringBuilder("policy,round,phase,view,up_to_ms,count\n");
        StringBuilder partitions = new StringBuilder(
                "policy,round,at_s,broker_status,preferred,preferred_led,preferred_in_isr,hosted,hosted_in_isr,"
                        + "hosted_bytes,bytes_behind\n");
        StringBuilder cpu = new StringBuilder("policy,round,at_s,cores\n");
        StringBuilder runs = new StringBuilder("policy,round,at_s,elected,elected_to_broker,broker_gated,failed\n");
        StringBuilder windows = new StringBuilder("policy,round,window,view,count,p99_ms\n");
        StringBuilder pacing = new StringBuilder("policy,round,at_s,rate_bytes,bytes_behind,reason,problem\n");
        for (RoundResult r : result.rounds()) {
            String key = cell(r.policy()) + "," + r.round() + ",";
            for (SecondSample s : r.seconds()) {
                seconds.append(key).append(s.second()).append(',').append(s.view().name().toLowerCase(Locale.ROOT))
                        .append(',').append(s.count()).append(',').append(s.errors()).append(',').append(num(s.p50Ms()))
                        .append(',').append(num(s.p99Ms())).append(',').append(num(s.maxMs())).append('\n');
            }
            for (RoundResult.LatencyBucket b : r.buckets()) {
                buckets.append(key).append(b.phase().name().toLowerCase(Locale.ROOT)).append(',')
                        .append(b.view().name().toLowerCase(Locale.ROOT)).append(',').append(num(b.upToMs())).append(',')
                        .append(b.count()).append('\n');
            }
            for (PartitionSample s : r.samples()) {
                partitions.append(key).append(num(s.atMs() / 1000.0)).append(',').append(s.status().name().toLowerCase(Locale.ROOT))
                        .append(',').append(s.preferred()).append(',').append(s.preferredLed()).append(',')
                        .append(s.preferredInIsr()).append(',').append(s.hosted()).append(',').append(s.hostedInIsr()).append(',')
                        .append(s.hostedBytes() < 0 ? "" : Long.toString(s.hostedBytes())).append(',')
                        .append(s.bytesBehind() < 0 ? "" : Long.toString(s.bytesBehind())).append('\n');
            }
            for (RoundResult.CpuSample c : r.cpu()) {
                cpu.append(key).append(num(c.atMs() / 1000.0)).append(',').append(num(c.cores())).append('\n');
            }
            for (PacingSample p : r.pacing()) {
                pacing.append(key).append(num(p.atMs() / 1000.0)).append(',')
                        .append(p.rateBytes() < 0 ? "" : Long.toString(p.rateBytes())).append(',')
                        .append(p.bytesBehind() < 0 ? "" : Long.toString(p.bytesBehind())).append(',')
                        .append(cell(p.reason())).append(',').append(cell(p.problem())).append('\n');
            }
            for (SteadyWindow w : r.steadyWindows()) {
                windows.append(key).append(w.index()).append(',').append(w.view().name().toLowerCase(Locale.ROOT))
                        .append(',').append(w.count()).append(',').append(num(w.p99Ms())).append('\n');
            }
            for (AgentRunSample a : r.agentRuns()) {
                runs.append(key).append(num(a.atMs() / 1000.0)).append(',').append(a.elected()).append(',')
                        .append(a.electedToBroker()).append(',').append(a.gated()).append(',').append(a.failed()).append('\n');
            }
        }
        AtomicFiles.write(dir.resolve("latency-seconds.csv"), seconds.toString());
        AtomicFiles.write(dir.resolve("latency-buckets.csv"), buckets.toString());
        AtomicFiles.write(dir.resolve("partitions.csv"), partitions.toString());
        AtomicFiles.write(dir.resolve("cpu.csv"), cpu.toString());
        AtomicFiles.write(dir.resolve("agent-runs.csv"), runs.toString());
        AtomicFiles.write(dir.resolve("steady-windows.csv"), windows.toString());
        AtomicFiles.write(dir.resolve("pacing.csv"), pacing.toString());
    }

    /** One line per round: the figures of the round table, machine-readable. */
    static String rounds(LoadTestResult result) {
        StringBuilder sb = new StringBuilder("policy,round,steady_p99_ms,steady_p99_protected_ms,window_p99_ms,"
                + "window_p99_protected_ms,window_p99_other_ms,window_p99_leader_ms,window_p99_in_sync_follower_ms,"
                + "window_p99_not_in_isr_ms,timeouts,failed,stopped_at_s,restarted_at_s,unfenced_at_s,window_s,ended_at_s,"
                + "recovery_s,gate_release_s,reentry_first_s,reentry_p50_s,reentry_p90_s,reentry_last_s,preferred,"
                + "reentered,batches_to_broker,saturation,cap_cores,cap_visible_in_cgroup,catch_up_busy_cores,steady_cores,after_catch_up_cores\n");
        for (RoundResult r : result.rounds()) {
            Timeline t = r.timeline();
            List<Object> cells = List.of(cell(r.policy()), r.round(),
                    num(r.steady().get(io.leaderpacer.loadtest.load.View.ALL).p99Ms()),
                    num(r.steady().get(io.leaderpacer.loadtest.load.View.PROTECTED).p99Ms()),
                    num(r.window().get(io.leaderpacer.loadtest.load.View.ALL).p99Ms()),
                    num(r.window().get(io.leaderpacer.loadtest.load.View.PROTECTED).p99Ms()),
                    num(r.window().get(io.leaderpacer.loadtest.load.View.OTHER).p99Ms()),
                    num(r.window().get(io.leaderpacer.loadtest.load.View.LEADER).p99Ms()),
                    num(r.window().get(io.leaderpacer.loadtest.load.View.IN_SYNC_FOLLOWER).p99Ms()),
                    num(r.window().get(io.leaderpacer.loadtest.load.View.NOT_IN_ISR).p99Ms()),
                    r.timeouts(), r.failures(), num(r.stoppedAtMs() / 1000.0), num(r.restartedAtMs() / 1000.0),
                    num(r.unfencedAtMs() / 1000.0), num(r.windowMs() / 1000.0), num(r.endedAtMs() / 1000.0),
                    r.recoveryMs().isPresent() ? num(r.recoveryMs().getAsLong() / 1000.0) : "",
                    r.gateReleasedAtMs().isPresent() ? num((r.gateReleasedAtMs().getAsLong() - r.unfencedAtMs()) / 1000.0) : "",
                    sec(t.firstMs()), sec(t.p50Ms()), sec(t.p90Ms()), sec(t.lastMs()), t.partitions(), t.reentered(),
                    r.batchesToBroker().size(), cell(r.saturation().mode()), num(r.saturation().capCores()),
                    r.saturation().visibleInCgroup(),
                    opt(r.saturation().catchUpBusyCores()), opt(r.saturation().steadyCores()),
                    opt(r.saturation().afterCatchUpCores()));
            StringBuilder line = new StringBuilder();
            for (Object c : cells) {
                line.append(line.length() == 0 ? "" : ",").append(c);
            }
            sb.append(line).append('\n');
        }
        return sb.toString();
    }

    /**
     * A text cell as RFC 4180 writes it: quoted when it holds a comma, a quote or a line break, quotes doubled. A policy
     * given as {@code name:key=value,key=value} holds commas; unquoted, it shifted every later column.
     */
    static String cell(String text) {
        if (text.indexOf(',') < 0 && text.indexOf('"') < 0 && text.indexOf('\n') < 0 && text.indexOf('\r') < 0) {
            return text;
        }
        return '"' + text.replace("\"", "\"\"") + '"';
    }

    private static String opt(java.util.OptionalDouble d) {
        return d.isPresent() ? num(d.getAsDouble()) : "";
    }

    private static String sec(long ms) {
        return ms < 0 ? "" : num(ms / 1000.0);
    }

    static String num(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.3f", v);
    }
}
