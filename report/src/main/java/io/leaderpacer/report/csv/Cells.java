package io.leaderpacer.report.csv;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.ContextualSerializer;
import com.fasterxml.jackson.databind.ser.std.StdScalarSerializer;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;

import java.io.IOException;
import java.util.Locale;

/**
 * The one {@link CsvMapper} every format uses, and how it writes and reads a number cell.
 *
 * <p>A {@code double} is written with a fixed count of decimals ({@link Decimals}, 3 by default) as
 * {@code String.format(Locale.ROOT, ...)} writes it, an unknown one (NaN) as an empty cell; an empty or absent cell
 * reads as NaN. A text cell is quoted only when it must be (a comma, a quote or a line break, RFC 4180), whatever its
 * length. Columns are bound by name, case aside; a column the row does not know is ignored, a line with fewer cells
 * than the header is an error.
 */
final class Cells {

    /** Decimals of a {@code double} column without {@link Decimals}. */
    static final int DEFAULT_DECIMALS = 3;

    static final CsvMapper MAPPER = CsvMapper.builder()
            .addModule(new SimpleModule("leader-pacer-csv-cells")
                    .addSerializer(Double.class, new FixedDecimals(DEFAULT_DECIMALS))
                    .addSerializer(double.class, new FixedDecimals(DEFAULT_DECIMALS))
                    .addDeserializer(Double.class, new NaNWhenEmpty())
                    .addDeserializer(double.class, new NaNWhenEmpty()))
            .enable(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING)
            .enable(CsvParser.Feature.FAIL_ON_MISSING_COLUMNS)
            .enable(CsvParser.Feature.SKIP_EMPTY_LINES)
            .enable(CsvParser.Feature.TRIM_SPACES)
            .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private Cells() {}

    /** A number with a fixed count of decimals; NaN as an empty cell. */
    static String fixed(double v, int decimals) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    private static final class FixedDecimals extends StdScalarSerializer<Double> implements ContextualSerializer {
        private static final long serialVersionUID = 1L;
        private final int decimals;

        FixedDecimals(int decimals) {
            super(Double.class);
            this.decimals = decimals;
        }

        @Override
        public JsonSerializer<?> createContextual(SerializerProvider provider, BeanProperty property) {
            Decimals d = property == null ? null : property.getAnnotation(Decimals.class);
            return d == null || d.value() == decimals ? this : new FixedDecimals(d.value());
        }

        @Override
        public void serialize(Double value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            if (value == null || value.isNaN()) {
                gen.writeNull();
            } else {
                gen.writeNumber(fixed(value, decimals));
            }
        }
    }

    private static final class NaNWhenEmpty extends StdScalarDeserializer<Double> {
        private static final long serialVersionUID = 1L;

        NaNWhenEmpty() {
            super(Double.class);
        }

        @Override
        public Double deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            String text = p.getValueAsString();
            if (text == null || text.isBlank()) {
                return Double.NaN;
            }
            try {
                return Double.parseDouble(text.strip());
            } catch (NumberFormatException e) {
                return (Double) ctxt.handleWeirdStringValue(Double.class, text, "not a number");
            }
        }

        @Override
        public Double getNullValue(DeserializationContext ctxt) {
            return Double.NaN;
        }

        @Override
        public Object getAbsentValue(DeserializationContext ctxt) {
            return Double.NaN;
        }
    }
}
