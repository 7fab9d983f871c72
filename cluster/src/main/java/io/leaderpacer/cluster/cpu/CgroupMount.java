package io.leaderpacer.cluster.cpu;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A mounted cgroup hierarchy, as {@code /proc/self/mountinfo} lists it, and the translation of a group path from
 * {@code /proc/<pid>/cgroup} to its directory.
 *
 * @param root      the hierarchy path mounted there ({@code /} unless a container mounts a sub-tree)
 * @param point     where it is mounted, e.g. {@code /sys/fs/cgroup/cpu}
 * @param version2  whether it is the unified (cgroup v2) hierarchy
 * @param options   the super-block options; for v1 they name the controllers ({@code rw,cpu,cpuacct})
 */
record CgroupMount(String root, Path point, boolean version2, List<String> options) {

    /** Every cgroup mount of this process's mount namespace. */
    static List<CgroupMount> all() {
        try {
            return parse(Files.readAllLines(Path.of("/proc/self/mountinfo")));
        } catch (IOException | UncheckedIOException e) {
            return List.of();
        }
    }

    /** Parses mountinfo lines: "id parent dev root point options [optional...] - fstype source superoptions". */
    static List<CgroupMount> parse(List<String> lines) {
        List<CgroupMount> mounts = new ArrayList<>();
        for (String line : lines) {
            String[] halves = line.split(" - ", 2);
            if (halves.length < 2) {
                continue;
            }
            String[] left = halves[0].split(" ");
            String[] right = halves[1].split(" ");
            if (left.length < 5 || right.length < 3) {
                continue;
            }
            if (right[0].equals("cgroup2") || right[0].equals("cgroup")) {
                mounts.add(new CgroupMount(
                        unescape(left[3]),
                        Path.of(unescape(left[4])),
                        right[0].equals("cgroup2"),
                        Arrays.asList(right[2].split(","))));
            }
        }
        return mounts;
    }

    /** The v1 hierarchy that holds the {@code cpu} controller, if mounted. */
    static Optional<CgroupMount> cpuV1(List<CgroupMount> mounts) {
        return mounts.stream()
                .filter(m -> !m.version2() && m.options().contains("cpu"))
                .findFirst();
    }

    static Optional<CgroupMount> unified(List<CgroupMount> mounts) {
        return mounts.stream().filter(CgroupMount::version2).findFirst();
    }

    /** The directory of the group that {@code /proc/<pid>/cgroup} names {@code groupPath}. */
    Path directoryOf(String groupPath) {
        String relative = groupPath;
        if (!root.equals("/") && (groupPath.equals(root) || groupPath.startsWith(root + "/"))) {
            relative = groupPath.substring(root.length());
        }
        relative = relative.replaceFirst("^/+", "");
        return relative.isEmpty() ? point : point.resolve(relative);
    }

    /** Mountinfo escapes space, tab, newline and backslash as octal. */
    private static String unescape(String s) {
        return s.replace("\\040", " ")
                .replace("\\011", "\t")
                .replace("\\012", "\n")
                .replace("\\134", "\\");
    }
}
