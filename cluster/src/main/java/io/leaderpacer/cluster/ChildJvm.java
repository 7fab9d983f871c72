package io.leaderpacer.cluster;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM options of a broker or controller process.
 *
 * <p>Why these: a small fixed heap, so that four JVMs fit a small machine; the serial collector, which on two
 * cores started as fast as G1 and kept the resident size lower (see docs/CLUSTER.md); exit on out-of-memory
 * rather than limp on; the JVM's temporary directory inside the node's directory, so that native libraries
 * unpacked by the compression codecs go away with the cluster even after a SIGKILL; and the generated logging
 * configuration. The user's options come last, so they win.
 */
final class ChildJvm {

    private ChildJvm() {
    }

    static List<String> options(String heap, Path nodeDirectory, List<String> extra) {
        List<String> o = new ArrayList<>();
        o.add("-Xmx" + heap);
        o.add("-XX:+UseSerialGC");
        o.add("-XX:+ExitOnOutOfMemoryError");
        o.add("-Djava.awt.headless=true");
        o.add("-Djava.io.tmpdir=" + nodeDirectory.resolve("tmp"));
        o.addAll(ChildLogging.writeInto(nodeDirectory));
        o.addAll(extra);
        return o;
    }
}
