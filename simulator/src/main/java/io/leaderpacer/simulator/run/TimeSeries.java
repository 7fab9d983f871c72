package io.leaderpacer.simulator.run;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A simulation's metrics over time: one row per time bucket, named columns of numbers. The first
 * column is always {@code time_s}, the bucket's start in seconds.
 */
public final class TimeSeries {

    /** Column name to values, in column order. */
    private final Map<String, double[]> columns;

    private final int rows;

    private TimeSeries(Map<String, double[]> columns, int rows) {
        this.columns = columns;
        this.rows = rows;
    }

    public int rows() {
        return rows;
    }

    public List<String> columnNames() {
        return Collections.unmodifiableList(new ArrayList<>(columns.keySet()));
    }

    public boolean has(String column) {
        return columns.containsKey(column);
    }

    /** A copy of one column. */
    public double[] column(String name) {
        double[] c = columns.get(name);
        if (c == null) {
            throw new IllegalArgumentException("no column '" + name + "'; columns are " + columns.keySet());
        }
        return c.clone();
    }

    public double value(String column, int row) {
        return columns.get(column)[row];
    }

    /** The first row whose bucket starts at or after {@code seconds}, or {@link #rows()}. */
    public int rowAt(double seconds) {
        double[] t = columns.get("time_s");
        for (int i = 0; i < rows; i++) {
            if (t[i] >= seconds) {
                return i;
            }
        }
        return rows;
    }

    /** Builds a series row by row. */
    public static final class Builder {
        private final List<String> names;
        private final List<double[]> rowsSoFar = new ArrayList<>();

        public Builder(List<String> names) {
            if (names.isEmpty() || !names.get(0).equals("time_s")) {
                throw new IllegalArgumentException("the first column must be time_s, got " + names);
            }
            this.names = List.copyOf(names);
        }

        public void row(double... values) {
            if (values.length != names.size()) {
                throw new IllegalArgumentException(values.length + " values for " + names.size() + " columns");
            }
            rowsSoFar.add(values.clone());
        }

        public TimeSeries build() {
            Map<String, double[]> cols = new LinkedHashMap<>();
            for (int c = 0; c < names.size(); c++) {
                double[] col = new double[rowsSoFar.size()];
                for (int r = 0; r < col.length; r++) {
                    col[r] = rowsSoFar.get(r)[c];
                }
                cols.put(names.get(c), col);
            }
            return new TimeSeries(cols, rowsSoFar.size());
        }
    }
}
