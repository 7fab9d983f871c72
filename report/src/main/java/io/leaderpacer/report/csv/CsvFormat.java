package io.leaderpacer.report.csv;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import io.leaderpacer.report.AtomicFiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One CSV file's format: its columns in order and the row record bound to them (by the record's JSON names, nested
 * records unwrapped). The code that writes the file and the code that reads it use the same format.
 *
 * <p>Writing gives a header line and one line per row; reading binds columns by name, so that a file with more
 * columns stays readable and one without a column the reader does not need can still be read ({@link CsvContent#has}
 * says which it had). Every reading error names the file, and the line where there is one.
 *
 * @param <R> the row record
 */
public final class CsvFormat<R> {

    private final Class<R> rowType;
    private final CsvSchema schema;

    private CsvFormat(Class<R> rowType, CsvSchema schema) {
        this.rowType = rowType;
        this.schema = schema;
    }

    /**
     * The format of a file whose columns are {@code columns}, in that order, each a property of {@code rowType}.
     *
     * @throws IllegalArgumentException when the columns and the row's properties differ
     */
    public static <R> CsvFormat<R> of(Class<R> rowType, String... columns) {
        Set<String> properties = new HashSet<>();
        Cells.MAPPER.schemaFor(rowType).forEach(c -> properties.add(c.getName()));
        if (!properties.equals(new HashSet<>(List.of(columns))) || properties.size() != columns.length) {
            throw new IllegalArgumentException(rowType.getSimpleName() + " has the properties " + properties
                    + ", the format the columns " + List.of(columns));
        }
        return new CsvFormat<>(rowType, schema(List.of(columns)));
    }

    /**
     * The format of a file whose columns are known only when it is written (a time series with the columns its
     * simulation recorded): a row maps column names to cell text, a column it does not name is empty.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static CsvFormat<Map<String, String>> ofColumns(List<String> columns) {
        return new CsvFormat<>((Class) Map.class, schema(columns));
    }

    private static CsvSchema schema(List<String> columns) {
        return CsvSchema.builder()
                .addColumns(columns, CsvSchema.ColumnType.STRING)
                .build()
                .withHeader();
    }

    /** The columns, in order. */
    public List<String> columns() {
        List<String> names = new ArrayList<>();
        schema.forEach(c -> names.add(c.getName()));
        return names;
    }

    /** The Jackson schema: the columns in order, with a header line. */
    public CsvSchema schema() {
        return schema;
    }

    /** The file's text: the header, then one line per row. */
    public String text(List<R> rows) {
        try {
            return Cells.MAPPER.writer(schema).writeValueAsString(rows);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + rowType.getSimpleName() + " rows: " + e.getMessage(), e);
        }
    }

    /** Writes the file whole or not at all ({@link AtomicFiles}). */
    public void write(Path file, List<R> rows) throws IOException {
        AtomicFiles.write(file, text(rows));
    }

    /**
     * The file, which must exist and have the {@code needed} columns; {@code missingHint} follows "no such file".
     *
     * @throws IllegalArgumentException naming the file (and the line) when it cannot be read
     */
    public CsvContent<R> read(Path file, List<String> needed, String missingHint) {
        return readIfPresent(file, needed)
                .orElseThrow(() -> new IllegalArgumentException(file + ": no such file" + missingHint));
    }

    /** The file with the {@code needed} columns, or empty when there is no such file. */
    public Optional<CsvContent<R>> readIfPresent(Path file, List<String> needed) {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot be read: " + e.getMessage());
        }
        return Optional.of(parse(file.toString(), text, needed));
    }

    /** CSV text from {@code source} (a file name, for messages) with the {@code needed} columns. */
    public CsvContent<R> parse(String source, String text, List<String> needed) {
        if (text.isBlank()) {
            throw new IllegalArgumentException(source + ": empty");
        }
        try (MappingIterator<R> it = Cells.MAPPER
                .readerFor(rowType)
                .with(CsvSchema.emptySchema().withHeader())
                .readValues(text)) {
            List<R> rows = new ArrayList<>();
            it.hasNext(); // reads the header
            List<String> columns = new ArrayList<>();
            ((CsvSchema) it.getParserSchema()).forEach(c -> columns.add(c.getName()));
            for (String n : needed) {
                if (!columns.contains(n)) {
                    throw new IllegalArgumentException(source + ": no column '" + n + "' in the header");
                }
            }
            while (it.hasNext()) {
                rows.add(it.next());
            }
            return new CsvContent<>(source, columns, rows);
        } catch (IOException | RuntimeException e) {
            throw readError(source, e);
        }
    }

    private static IllegalArgumentException readError(String source, Exception e) {
        if (e instanceof IllegalArgumentException already
                && already.getMessage() != null
                && already.getMessage().startsWith(source + ":")) {
            return already;
        }
        Throwable cause = e;
        while (!(cause instanceof JsonProcessingException) && cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        if (!(cause instanceof JsonProcessingException)) {
            cause = e;
        }
        String where = source;
        String what = cause.getMessage();
        if (cause instanceof JsonProcessingException j) {
            JsonLocation at = j.getLocation();
            where = at == null || at.getLineNr() < 1 ? source : source + " line " + at.getLineNr();
            what = j.getOriginalMessage();
            if (j instanceof InvalidFormatException f && !f.getPath().isEmpty()) {
                what = "column " + f.getPath().get(f.getPath().size() - 1).getFieldName() + " is not a number: '"
                        + f.getValue() + "'";
            }
        }
        return new IllegalArgumentException(where + ": " + what, cause);
    }
}
