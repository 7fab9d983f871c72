package io.leaderpacer.loadtest.testbed;

import io.leaderpacer.cluster.cpu.CpuQuota;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * Saturates the restarted broker alone: a CPU quota on its process from the moment it has registered until the round
 * ends, where the OS allows one; otherwise pinning it to one core; otherwise nothing, and the report says that such a
 * run cannot show the gate's effect.
 *
 * <p>Why from registration on: under a tight quota a broker takes tens of seconds just to start; the catch-up, which
 * is what saturates a real returning broker, starts only once it has registered. Why a quota well above what the
 * broker needs for the steady load: a healthy broker must keep up with its normal traffic under the cap, or every
 * percentile only measures a queue that grows all the time; only the catch-up should fill the rest.
 */
public final class Saturation {

    private final CpuQuota quota;
    private final double cores;
    /** Why no quota is used, when none is. */
    private final String off;
    /** Whether the JIT compiler's threads are taken out of the cap (cgroup v1 only). */
    private final boolean sparesCompiler;
    /** The quota's CFS period. */
    private final Duration period;

    private Saturation(CpuQuota quota, double cores, String off, boolean sparesCompiler, Duration period) {
        this.quota = quota;
        this.cores = cores;
        this.off = off;
        this.sparesCompiler = sparesCompiler;
        this.period = period;
    }

    /**
     * A quota of {@code cores} where the OS allows one.
     *
     * @throws IllegalArgumentException when it is a cgroup quota the kernel would refuse (under 1 ms of CPU a 100-ms
     *                                  period): said when the option is read, not when the broker restarts
     */
    public static Saturation of(double cores) {
        CpuQuota q = CpuQuota.detect();
        if (q.mode().cgroup()) {
            CpuQuota.requireCgroupCap(cores, CpuQuota.DEFAULT_PERIOD, "--cpu-cap");
        }
        return q.mode() == CpuQuota.Mode.NONE
                ? new Saturation(null, cores, q.reason(), false, CpuQuota.DEFAULT_PERIOD)
                : new Saturation(q, cores, null, false, CpuQuota.DEFAULT_PERIOD);
    }

    /** No saturation, on purpose (an existing cluster, or --no-saturation). */
    public static Saturation none(String why) {
        return new Saturation(null, Double.NaN, why, false, CpuQuota.DEFAULT_PERIOD);
    }

    /**
     * The same cap, with the JVM's JIT compiler threads taken out of it, each second as they appear: the broker's own
     * work is capped and its compiler is not, as on a production broker whose disks and network are saturated by a
     * catch-up while its compiler has cores of its own. Only cgroup v1 moves single threads.
     *
     * @throws IllegalArgumentException when the cap is not a cgroup v1 one
     */
    public Saturation sparingCompiler() {
        if (quota == null || quota.mode() != CpuQuota.Mode.CGROUP_V1) {
            throw new IllegalArgumentException(
                    "--cap-spares-compiler needs a cgroup v1 cpu quota (this machine: " + machine() + ")");
        }
        return new Saturation(quota, cores, off, true, period);
    }

    /**
     * The same cap over CFS periods of {@code period} instead of the kernel's 100 ms: the same share of a core. Meant to
     * separate what a catch-up's bursts cost through the quota's stops from what they cost by themselves; but the
     * kernel hands runtime to each CPU in slices ({@code sched_cfs_bandwidth_slice_us}, 5 ms here), and a period whose
     * quota is near one slice may stop the broker more: half a core over 10-ms periods stood 162 ms a second against
     * 71-98 over 100-ms ones (evidence run 40). Measure the stopped time ({@code cpu.csv}) before reading a run.
     *
     * @throws IllegalArgumentException when the cap is not a cgroup one, or the period is outside the kernel's bounds
     *                                  or leaves under 1 ms of CPU a period
     */
    public Saturation withPeriod(Duration period) {
        if (quota == null || !quota.mode().cgroup()) {
            throw new IllegalArgumentException(
                    "--cpu-cap-period needs a cgroup cpu quota (this machine: " + machine() + ")");
        }
        CpuQuota.requireCgroupCap(cores, period, "--cpu-cap-period");
        return new Saturation(quota, cores, off, sparesCompiler, period);
    }

    /** What this machine offers for a cap, for an error that refuses an option: the mode, or none and why. */
    private String machine() {
        return quota == null ? "none, " + off : mode();
    }

    /** Whether the JIT compiler's threads are left out of the cap. */
    public boolean sparesCompiler() {
        return sparesCompiler;
    }

    /** Whether a quota (or pinning) is applied. */
    public boolean active() {
        return quota != null;
    }

    /** The cap in cores, {@code NaN} without one. */
    public double capCores() {
        if (quota == null) {
            return Double.NaN;
        }
        return quota.mode() == CpuQuota.Mode.TASKSET ? 1.0 : cores;
    }

    /** What ran, for the report. */
    public String mode() {
        if (quota == null) {
            return "none";
        }
        return switch (quota.mode()) {
            case CGROUP_V2 -> "cgroup v2 cpu.max" + periodText();
            case CGROUP_V1 ->
                "cgroup v1 cpu.cfs_quota_us" + periodText() + (sparesCompiler ? ", JIT compiler threads spared" : "");
            case TASKSET -> "taskset (pinned to one core)";
            case NONE -> "none";
        };
    }

    /** The period, where it is not the kernel's default. */
    private String periodText() {
        return period.equals(CpuQuota.DEFAULT_PERIOD)
                ? ""
                : String.format(Locale.ROOT, " over %.1f-ms periods", period.toNanos() / 1e6);
    }

    /** One line for the settings. */
    public String describe() {
        if (quota == null) {
            return "none (" + off + "): this run cannot show the gate's effect on latency";
        }
        if (quota.mode() == CpuQuota.Mode.TASKSET) {
            return "the restarted broker pinned to one core with taskset, from registration to the end of each round";
        }
        return String.format(
                Locale.ROOT,
                "CPU quota of %.2f core on the restarted broker's process (%s),"
                        + " from registration to the end of each round",
                cores,
                mode());
    }

    /** Caps this process; empty without saturation. */
    public Optional<CpuQuota.Limit> apply(long pid) {
        return quota == null ? Optional.empty() : Optional.of(quota.limit(pid, cores, period));
    }
}
