package io.leaderpacer.cluster.cpu;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * One line of {@code /proc/<pid>/cgroup}: which group of a hierarchy a process is in.
 *
 * @param hierarchy   the hierarchy id, 0 for cgroup v2
 * @param controllers the v1 controllers of that hierarchy ({@code cpu,cpuacct}), empty for v2
 * @param path        the group's path within the hierarchy, e.g. {@code /} or {@code /leader-pacer-42-ab}
 */
record ProcCgroup(int hierarchy, List<String> controllers, String path) {

    /** The process's group in the v1 hierarchy holding {@code cpu}, or in the v2 hierarchy. */
    static Optional<ProcCgroup> of(long pid, boolean version2) {
        try {
            return Files.readAllLines(Path.of("/proc/" + pid + "/cgroup")).stream()
                    .map(ProcCgroup::parse)
                    .flatMap(Optional::stream)
                    .filter(c -> version2
                            ? c.hierarchy() == 0 && c.controllers().isEmpty()
                            : c.controllers().contains("cpu"))
                    .findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Parses "id:controllers:path"; the path may itself hold colons. */
    static Optional<ProcCgroup> parse(String line) {
        String[] parts = line.split(":", 3);
        if (parts.length < 3) {
            return Optional.empty();
        }
        try {
            List<String> controllers = parts[1].isEmpty() ? List.of() : Arrays.asList(parts[1].split(","));
            return Optional.of(new ProcCgroup(Integer.parseInt(parts[0]), controllers, parts[2]));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** The path of a child group called {@code name}. */
    static String child(String parentPath, String name) {
        return parentPath.endsWith("/") ? parentPath + name : parentPath + "/" + name;
    }

    /** The path of the parent group ({@code /} stays {@code /}). */
    static String parent(String path) {
        int slash = path.lastIndexOf('/');
        return slash <= 0 ? "/" : path.substring(0, slash);
    }
}
