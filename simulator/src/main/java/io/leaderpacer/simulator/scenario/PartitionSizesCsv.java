package io.leaderpacer.simulator.scenario;

import io.leaderpacer.report.csv.CsvContent;
import io.leaderpacer.report.csv.CsvFormat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A CSV of partition sizes, as an operator can export one ({@code kafka-log-dirs.sh --describe} gives size per
 * partition): a header {@code partition,bytes}, then one row per partition of the topic, 0 to n-1, in any order.
 *
 * <p>Read relative to the scenario file, so a scenario and its sizes travel together.
 */
final class PartitionSizesCsv {

    /** One line: a partition and its size. */
    record Size(Integer partition, double bytes) {}

    static final CsvFormat<Size> FORMAT = CsvFormat.of(Size.class, "partition", "bytes");

    private PartitionSizesCsv() {}

    static List<Double> read(YamlFields t, String field, String source, int partitions) {
        String name = t.requireString(field);
        Path base = Path.of(source).toAbsolutePath().getParent();
        Path file = base == null ? Path.of(name) : base.resolve(name);
        CsvContent<Size> content;
        try {
            content = FORMAT.readIfPresent(file, List.of()).orElseThrow(() -> t.error(field, "no such file: " + file));
        } catch (IllegalArgumentException e) {
            throw t.error(field, e.getMessage());
        }
        if (!content.columns().stream()
                .map(c -> c.toLowerCase(Locale.ROOT))
                .toList()
                .equals(FORMAT.columns())) {
            throw t.error(field, file + ": the first line must be the header partition,bytes");
        }
        Double[] sizes = new Double[partitions];
        for (Size s : content.rows()) {
            if (s.partition() == null) {
                throw t.error(field, file + ": a row has no partition number");
            }
            int p = s.partition();
            if (p < 0 || p >= partitions) {
                throw t.error(field, file + ": partition " + p + " does not exist (the topic has " + partitions + ")");
            }
            if (!(s.bytes() >= 0) || Double.isInfinite(s.bytes())) {
                throw t.error(
                        field,
                        file + ": partition " + p + ": bytes must be 0 or more, got "
                                + (Double.isNaN(s.bytes()) ? "nothing" : s.bytes()));
            }
            if (sizes[p] != null) {
                throw t.error(field, file + ": partition " + p + " appears twice");
            }
            sizes[p] = s.bytes();
        }
        List<Double> out = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            if (sizes[p] == null) {
                throw t.error(field, file + ": no row for partition " + p);
            }
            out.add(sizes[p]);
        }
        return out;
    }
}
