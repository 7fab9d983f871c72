package io.leaderpacer.cluster.cpu;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Reading mountinfo and /proc/PID/cgroup lines, and where a group's directory is. */
class CgroupPathsTest {

    private static final List<String> MOUNTINFO = List.of(
            "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755",
            "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu",
            "33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct",
            "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime shared:9 - cgroup2 cgroup2 rw",
            "50 23 0:40 /docker/abc /mnt/cpu\\040x rw - cgroup cgroup rw,cpu,cpuacct");

    @Test
    void parse_findsTheV1CpuHierarchyAndTheUnifiedOne() {
        List<CgroupMount> mounts = CgroupMount.parse(MOUNTINFO);
        assertThat(mounts).hasSize(4);
        assertThat(CgroupMount.cpuV1(mounts).orElseThrow().point()).isEqualTo(Path.of("/sys/fs/cgroup/cpu"));
        assertThat(CgroupMount.unified(mounts).orElseThrow().point()).isEqualTo(Path.of("/sys/fs/cgroup/unified"));
        assertThat(mounts.get(3).point()).isEqualTo(Path.of("/mnt/cpu x"));
    }

    @Test
    void directoryOf_stripsTheMountedRoot() {
        CgroupMount whole = new CgroupMount("/", Path.of("/sys/fs/cgroup/cpu"), false, List.of("cpu"));
        assertThat(whole.directoryOf("/")).isEqualTo(Path.of("/sys/fs/cgroup/cpu"));
        assertThat(whole.directoryOf("/a/b")).isEqualTo(Path.of("/sys/fs/cgroup/cpu/a/b"));
        CgroupMount part = new CgroupMount("/docker/abc", Path.of("/sys/fs/cgroup/cpu"), false, List.of("cpu"));
        assertThat(part.directoryOf("/docker/abc/x")).isEqualTo(Path.of("/sys/fs/cgroup/cpu/x"));
        assertThat(part.directoryOf("/docker/abc")).isEqualTo(Path.of("/sys/fs/cgroup/cpu"));
        assertThat(part.directoryOf("/x")).isEqualTo(Path.of("/sys/fs/cgroup/cpu/x")); // a cgroup namespace's view
    }

    @Test
    void procCgroupLines_giveTheControllersAndThePath() {
        ProcCgroup v1 = ProcCgroup.parse("1:cpu,cpuacct:/leader-pacer-1-ab").orElseThrow();
        assertThat(v1.controllers()).containsExactly("cpu", "cpuacct");
        assertThat(v1.path()).isEqualTo("/leader-pacer-1-ab");
        ProcCgroup v2 = ProcCgroup.parse("0::/user.slice/a:b").orElseThrow();
        assertThat(v2.hierarchy()).isZero();
        assertThat(v2.controllers()).isEmpty();
        assertThat(v2.path()).isEqualTo("/user.slice/a:b");
        assertThat(ProcCgroup.parse("garbage")).isEmpty();
        assertThat(ProcCgroup.child("/", "g")).isEqualTo("/g");
        assertThat(ProcCgroup.child("/a", "g")).isEqualTo("/a/g");
        assertThat(ProcCgroup.parent("/a/b")).isEqualTo("/a");
        assertThat(ProcCgroup.parent("/a")).isEqualTo("/");
    }
}
