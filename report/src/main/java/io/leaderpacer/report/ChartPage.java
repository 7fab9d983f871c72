package io.leaderpacer.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A self-contained HTML page of text, tables and time-series charts, viewable offline.
 *
 * <p>Why a class of its own: both the simulator's report and the load test's need "a few
 * paragraphs, a table and some charts over time" in one file that can be mailed or attached to a
 * ticket without a server or a network. The charts are drawn by uPlot, whose script and style are
 * read from the uPlot webjar on the class path and inlined, so the page needs nothing else (which
 * version: {@code UplotVersion}, from the build). The API speaks only of strings, numbers and
 * seconds: nothing here knows about simulations or clusters.
 *
 * <p>Values that are {@code NaN} are drawn as gaps. Text is HTML-escaped.
 */
public final class ChartPage {

    /** Where the uPlot webjar keeps its distribution, on the class path. */
    static final String UPLOT_DIST = "META-INF/resources/webjars/uplot/" + UplotVersion.VERSION + "/dist/";

    /** Series colours, picked to stay distinguishable for the common forms of colour blindness. */
    private static final String[] PALETTE = {
        "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#000000", "#56B4E9", "#E69F00", "#F0E442"
    };

    private final String title;
    /** The page's content in reading order. */
    private final List<Block> blocks;

    private ChartPage(String title, List<Block> blocks) {
        this.title = title;
        this.blocks = List.copyOf(blocks);
    }

    /** Starts a page with the given title. */
    public static Builder builder(String title) {
        return new Builder(title);
    }

    public String title() {
        return title;
    }

    /** One named line on a chart; {@code values[i]} belongs to the chart's {@code xSeconds[i]}. */
    public record Series(String name, double[] values) {
        public Series {
            Objects.requireNonNull(name, "name");
            values = values.clone();
        }

        @Override
        public double[] values() {
            return values.clone();
        }
    }

    /**
     * A labelled instant drawn as a dashed vertical line across a chart (a broker stopped, unfenced, a gate
     * released), so that a reader sees what happened when without matching times by hand.
     *
     * @param xSeconds where, on the chart's x axis
     * @param label    shown at the top of the line
     */
    public record Marker(double xSeconds, String label) {
        public Marker {
            Objects.requireNonNull(label, "label");
        }
    }

    /**
     * A line chart over time.
     *
     * @param title    shown above the chart
     * @param yLabel   the quantity and its unit, e.g. "P99 produce latency (ms)"
     * @param xSeconds x values in seconds (shown as h:mm:ss), ascending
     * @param series   the lines, each as long as {@code xSeconds}
     * @param logScale draw the y axis on a log10 scale (for latencies that span orders of magnitude)
     * @param stepped  draw as steps (for states and counts that change at instants)
     * @param markers  events drawn as vertical lines
     */
    public record Chart(
            String title,
            String yLabel,
            double[] xSeconds,
            List<Series> series,
            boolean logScale,
            boolean stepped,
            List<Marker> markers) {
        public Chart {
            Objects.requireNonNull(title, "title");
            Objects.requireNonNull(yLabel, "yLabel");
            xSeconds = xSeconds.clone();
            series = List.copyOf(series);
            markers = List.copyOf(markers);
            for (Series s : series) {
                if (s.values.length != xSeconds.length) {
                    throw new IllegalArgumentException("chart '" + title + "': series '" + s.name() + "' has "
                            + s.values.length + " values for " + xSeconds.length + " x values");
                }
            }
        }

        /** A linear, non-stepped chart without markers. */
        public static Chart of(String title, String yLabel, double[] xSeconds, List<Series> series) {
            return new Chart(title, yLabel, xSeconds, series, false, false, List.of());
        }

        public Chart withLogScale() {
            return new Chart(title, yLabel, xSeconds, series, true, stepped, markers);
        }

        public Chart withSteps() {
            return new Chart(title, yLabel, xSeconds, series, logScale, true, markers);
        }

        public Chart withMarkers(List<Marker> events) {
            return new Chart(title, yLabel, xSeconds, series, logScale, stepped, events);
        }

        @Override
        public double[] xSeconds() {
            return xSeconds.clone();
        }
    }

    /** One piece of the page. */
    private sealed interface Block permits Heading, Paragraph, Preformatted, Table, ChartBlock {}

    private record Heading(String text) implements Block {}

    private record Paragraph(String text) implements Block {}

    private record Preformatted(String text) implements Block {}

    private record Table(List<String> header, List<List<String>> rows) implements Block {}

    private record ChartBlock(Chart chart, int index) implements Block {}

    /** Collects the page's blocks in order. */
    public static final class Builder {
        private final String title;
        private final List<Block> blocks = new ArrayList<>();
        private int charts;

        private Builder(String title) {
            this.title = Objects.requireNonNull(title, "title");
        }

        /** A section heading. */
        public Builder section(String heading) {
            blocks.add(new Heading(heading));
            return this;
        }

        /** A paragraph of plain text. */
        public Builder paragraph(String text) {
            blocks.add(new Paragraph(text));
            return this;
        }

        /** Text shown as is, in a fixed-width font (command lines, explanations). */
        public Builder preformatted(String text) {
            blocks.add(new Preformatted(text));
            return this;
        }

        /** A table; each row must be as wide as the header. */
        public Builder table(List<String> header, List<List<String>> rows) {
            blocks.add(new Table(List.copyOf(header), TextTable.checkedRows(header, rows)));
            return this;
        }

        public Builder chart(Chart chart) {
            blocks.add(new ChartBlock(chart, charts++));
            return this;
        }

        public ChartPage build() {
            return new ChartPage(title, blocks);
        }
    }

    /** The page as one HTML document with uPlot inlined. */
    public String toHtml() {
        StringBuilder out = new StringBuilder(64 * 1024);
        out.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
                .append(escape(title))
                .append("</title>\n<style>\n")
                .append(resource("uPlot.min.css"))
                .append("\n")
                .append(PAGE_STYLE)
                .append("</style>\n<script>\n")
                .append(resource("uPlot.iife.min.js"))
                .append("\n</script>\n</head>\n<body>\n<h1>")
                .append(escape(title))
                .append("</h1>\n");
        StringBuilder scripts = new StringBuilder();
        for (Block block : blocks) {
            if (block instanceof Heading h) {
                out.append("<h2>").append(escape(h.text())).append("</h2>\n");
            } else if (block instanceof Paragraph p) {
                out.append("<p>").append(escape(p.text())).append("</p>\n");
            } else if (block instanceof Preformatted p) {
                out.append("<pre>").append(escape(p.text())).append("</pre>\n");
            } else if (block instanceof Table t) {
                renderTable(out, t);
            } else if (block instanceof ChartBlock c) {
                out.append("<div class=\"chart\" id=\"chart").append(c.index()).append("\"></div>\n");
                renderChartScript(scripts, c);
            }
        }
        out.append("<script>\n").append(CHART_HELPERS).append(scripts).append("</script>\n</body>\n</html>\n");
        return out.toString();
    }

    /**
     * Writes the page to a file, whole or not at all: it is written to a temporary file in the same
     * directory and then moved into place, so a reader never sees half a page.
     */
    public void writeTo(Path file) throws IOException {
        AtomicFiles.write(file, toHtml());
    }

    private static void renderTable(StringBuilder out, Table t) {
        out.append("<table>\n<thead><tr>");
        for (String h : t.header()) {
            out.append("<th>").append(escape(h)).append("</th>");
        }
        out.append("</tr></thead>\n<tbody>\n");
        for (List<String> row : t.rows()) {
            out.append("<tr>");
            for (String cell : row) {
                out.append("<td>").append(escape(cell).replace("\n", "<br>")).append("</td>");
            }
            out.append("</tr>\n");
        }
        out.append("</tbody>\n</table>\n");
    }

    private static void renderChartScript(StringBuilder js, ChartBlock block) {
        Chart c = block.chart();
        js.append("drawChart(\"chart")
                .append(block.index())
                .append("\", ")
                .append(jsString(c.title()))
                .append(", ")
                .append(jsString(c.yLabel()))
                .append(", ")
                .append(c.logScale())
                .append(", ")
                .append(c.stepped())
                .append(", [");
        for (int i = 0; i < c.series().size(); i++) {
            js.append(i > 0 ? ", " : "").append(jsString(c.series().get(i).name()));
        }
        js.append("], [");
        js.append(jsArray(c.xSeconds, false));
        for (Series s : c.series()) {
            js.append(",\n ").append(jsArray(s.values, c.logScale()));
        }
        js.append("], [");
        for (int i = 0; i < c.series().size(); i++) {
            js.append(i > 0 ? ", " : "")
                    .append('"')
                    .append(PALETTE[i % PALETTE.length])
                    .append('"');
        }
        js.append("], [");
        for (int i = 0; i < c.markers().size(); i++) {
            Marker m = c.markers().get(i);
            js.append(i > 0 ? ", " : "")
                    .append("[")
                    .append(number(m.xSeconds()))
                    .append(", ")
                    .append(jsString(m.label()))
                    .append("]");
        }
        js.append("]);\n");
    }

    private static String jsArray(double[] values, boolean positiveOnly) {
        StringBuilder sb = new StringBuilder(values.length * 6);
        sb.append('[');
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            double v = values[i];
            if (Double.isNaN(v) || Double.isInfinite(v) || (positiveOnly && v <= 0)) {
                sb.append("null");
            } else {
                sb.append(number(v));
            }
        }
        return sb.append(']').toString();
    }

    /** Up to 4 significant digits, without exponent noise, identical on every machine. */
    private static String number(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        String s = String.format(Locale.ROOT, "%.4g", v);
        if (s.contains("e")) {
            return s;
        }
        if (s.contains(".")) {
            s = s.replaceAll("0+$", "");
            if (s.endsWith(".")) {
                s = s.substring(0, s.length() - 1);
            }
        }
        return s;
    }

    private static String jsString(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '"':
                    sb.append("\\\"");
                    break;
                case '\\':
                    sb.append("\\\\");
                    break;
                case '\n':
                    sb.append("\\n");
                    break;
                case '<':
                    sb.append("\\u003c");
                    break;
                case '>':
                    sb.append("\\u003e");
                    break;
                case '&':
                    sb.append("\\u0026");
                    break;
                default:
                    if (ch < 0x20) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) ch));
                    } else {
                        sb.append(ch);
                    }
            }
        }
        return sb.append('"').toString();
    }

    static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '<':
                    sb.append("&lt;");
                    break;
                case '>':
                    sb.append("&gt;");
                    break;
                case '&':
                    sb.append("&amp;");
                    break;
                case '"':
                    sb.append("&quot;");
                    break;
                default:
                    sb.append(ch);
            }
        }
        return sb.toString();
    }

    private static String resource(String name) {
        String path = UPLOT_DIST + name;
        try (InputStream in = ChartPage.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("uPlot is not on the class path (" + path
                        + "): add org.webjars.npm:uplot:" + UplotVersion.VERSION + " to the dependencies");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
    }

    private static final String PAGE_STYLE = String.join(
            "\n",
            "body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }",
            "h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 1.6em; border-bottom: 1px solid #ddd; }",
            "table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.9em; }",
            "th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }",
            "th { background: #f3f3f3; } td:first-child, th:first-child { text-align: left; }",
            "pre { background: #f7f7f7; padding: 0.6em; overflow-x: auto; font-size: 0.85em; }",
            ".chart { margin: 1em 0 2em 0; }",
            "");

    /** Draws one chart; x is seconds since the start, shown as h:mm:ss. */
    private static final String CHART_HELPERS = String.join(
            "\n",
            "function fmtSeconds(s) {",
            "  if (s == null) return '';",
            "  const t = Math.round(Math.abs(s)), h = Math.floor(t / 3600), m = Math.floor((t % 3600) / 60), x = t % 60;",
            "  return (s < 0 ? '-' : '') + h + ':' + String(m).padStart(2, '0') + ':' + String(x).padStart(2, '0');",
            "}",
            "function drawMarkers(u, markers) {",
            "  const ctx = u.ctx, top = u.bbox.top, bottom = u.bbox.top + u.bbox.height;",
            "  ctx.save(); ctx.strokeStyle = '#777'; ctx.fillStyle = '#444'; ctx.setLineDash([4, 4]);",
            "  ctx.font = Math.round(10 * devicePixelRatio) + 'px sans-serif';",
            "  markers.forEach((m, i) => {",
            "    const x = u.valToPos(m[0], 'x', true);",
            "    if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) return;",
            "    ctx.beginPath(); ctx.moveTo(x, top); ctx.lineTo(x, bottom); ctx.stroke();",
            "    ctx.fillText(m[1], x + 3, top + (12 + 12 * (i % 3)) * devicePixelRatio);",
            "  });",
            "  ctx.restore();",
            "}",
            "function drawChart(id, title, yLabel, logScale, stepped, names, data, colors, markers) {",
            "  const el = document.getElementById(id);",
            "  const width = Math.max(480, Math.min(1100, el.clientWidth || 1000));",
            "  const paths = stepped ? uPlot.paths.stepped({align: 1}) : undefined;",
            "  const series = [{label: 'time', value: (u, v) => fmtSeconds(v)}];",
            "  names.forEach((n, i) => series.push({label: n, stroke: colors[i], width: 1.5, paths: paths, spanGaps: false}));",
            "  const opts = {",
            "    title: title, width: width, height: 300,",
            "    scales: {x: {time: false}, y: logScale ? {distr: 3} : {}},",
            "    axes: [{label: 'time since start (h:mm:ss)', values: (u, vals) => vals.map(fmtSeconds),",
            "            incrs: [1, 5, 10, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14400, 28800, 86400]},",
            "           {label: yLabel, size: 70}],",
            "    series: series,",
            "    hooks: {draw: [u => drawMarkers(u, markers || [])]}",
            "  };",
            "  new uPlot(opts, data, el);",
            "}",
            "");
}
