package io.leaderpacer.cli.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The recorded timelines as CSV, next to the report: the raw numbers behind every chart and the
 * comparison, for anyone who wants to plot or check them differently.
 */
final class TimelineCsv {

    /** File name inside the output directory. */
    static final String FILE_NAME = "timeline.csv";

    /** The columns, in order. */
    static final String HEADER = "policy,time_ms,restart_ms,broker_active,out_of_sync,preferred_partitions,gate,"
            + "leaders,elections,elections_to_restarted,produce_p99_ms,sends";

    private TimelineCsv() {
    }

    /** One line per sample of every run, header first. */
    static List<String> lines(List<RecoveryRun> runs) {
        List<String> out = new ArrayList<>();
        out.add(HEADER);
        for (RecoveryRun r : runs) {
            for (TimelineSample s : r.timeline()) {
                out.add(String.format(Locale.ROOT, "%s,%d,%d,%b,%d,%d,%s,%d,%d,%d,%s,%d", r.policy(), s.atMs(),
                        r.restartAtMs(), s.restartedActive(), s.outOfSync(), s.preferredPartitions(),
                        s.phase() == null ? "" : s.phase().name(), s.leaders(), s.elections(), s.electionsToRestarted(),
                        Double.isNaN(s.produceP99Ms()) ? "" : String.format(Locale.ROOT, "%.3f", s.produceP99Ms()),
                        s.produced()));
            }
        }
        return out;
    }

    /** Writes {@code directory/timeline.csv} whole or not at all, and returns the file. */
    static Path write(Path directory, List<RecoveryRun> runs) throws IOException {
        Files.createDirectories(directory);
        Path file = directory.resolve(FILE_NAME);
        Path tmp = directory.resolve("." + FILE_NAME + ".tmp");
        try {
            Files.write(tmp, lines(runs), StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
        return file;
    }
}
