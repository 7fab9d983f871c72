package io.leaderpacer.cluster.process;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The JVM options of a broker or controller process.
 *
 * <p>Why these: a small fixed heap, so that four JVMs fit a small machine; the serial collector, which on two
 * cores started a cluster in 22-26 s against 40-43 s with G1 and used less CPU to do it (G1 kept about 60 MB less
 * resident per broker; measured, see docs/CLUSTER.md): CPU is what a small machine lacks; exit on out-of-memory
 * rather than limp on; the JVM's temporary directory inside the node's directory, so that native libraries
 * unpacked by the compression codecs go away with the cluster even after a SIGKILL; and the generated logging
 * configuration. The user's options come last, so they win (a collector of the user's replaces the default one).
 */
public final class ChildJvm {

    private ChildJvm() {}

    /** A collector choice; the JVM refuses two, so the user's replaces the default. */
    private static final Pattern COLLECTOR = Pattern.compile("-XX:\\+Use\\w+GC");

    public static List<String> options(String heap, Path nodeDirectory, List<String> extra) {
        List<String> o = new ArrayList<>();
        o.add("-Xmx" + heap);
        if (extra.stream().noneMatch(e -> COLLECTOR.matcher(e).matches())) {
            o.add("-XX:+UseSerialGC");
        }
        o.add("-XX:+ExitOnOutOfMemoryError");
        o.add("-Djava.awt.headless=true");
        o.add("-Djava.io.tmpdir=" + nodeDirectory.resolve("tmp"));
        o.addAll(ChildLogging.writeInto(nodeDirectory));
        o.addAll(extra);
        return o;
    }
}
