package io.leaderpacer.simulator.scenario;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A CSV of partition sizes, as an operator can export one ({@code kafka-log-dirs.sh --describe} gives size per
 * partition): a header {@code partition,bytes}, then one row per partition of the topic, 0 to n-1, in any order.
 *
 * <p>Read relative to the scenario file, so a scenario and its sizes travel together.
 */
final class PartitionSizesCsv {

    private PartitionSizesCsv() {
    }

    static List<Double> read(YamlFields t, String field, String source, int partitions) {
        String name = t.requireString(field);
        Path base = Path.of(source).toAbsolutePath().getParent();
        Path file = base == null ? Path.of(name) : base.resolve(name);
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (NoSuchFileException e) {
            throw t.error(field, "no such file: " + file);
        } catch (IOException e) {
            throw t.error(field, file + " cannot be read: " + e.getMessage());
        }
        if (lines.isEmpty() || !lines.get(0).replace(" ", "").equalsIgnoreCase("partition,bytes")) {
            throw t.error(field, file + ": the first line must be the header partition,bytes");
        }
        Double[] sizes = new Double[partitions];
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (line.isEmpty()) {
                continue;
            }
            String[] cells = line.split(",");
            String where = file + " line " + (i + 1);
            if (cells.length != 2) {
                throw t.error(field, where + ": expected partition,bytes, got '" + line + "'");
            }
            int p;
            double bytes;
            try {
                p = Integer.parseInt(cells[0].trim());
                bytes = Double.parseDouble(cells[1].trim());
            } catch (NumberFormatException e) {
                throw t.error(field, where + ": not a number in '" + line + "'");
            }
            if (p < 0 || p >= partitions) {
                throw t.error(field, where + ": partition " + p + " does not exist (the topic has " + partitions + ")");
            }
            if (!(bytes >= 0) || Double.isInfinite(bytes)) {
                throw t.error(field, where + ": bytes must be 0 or more, got " + cells[1].trim());
            }
            if (sizes[p] != null) {
                throw t.error(field, where + ": partition " + p + " appears twice");
            }
            sizes[p] = bytes;
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
