package io.leaderpacer.simulator.scenario;

import io.leaderpacer.engine.config.ConfigException;

/**
 * A scenario file that cannot be run, with the file, the field and the problem named so that the
 * author can fix it without reading the loader.
 */
public final class ScenarioException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The file (as given), or a description of the source. */
    private final String file;
    /** The field's path, e.g. {@code topics[0].partitions}; empty for problems with the whole file. */
    private final String field;
    /** What is wrong and what is allowed. */
    private final String problem;

    public ScenarioException(String file, String field, String problem) {
        super(oneLine(
                file + (field.isEmpty() ? "" : ": field '" + ConfigException.printable(field) + "'") + ": " + problem));
        this.file = file;
        this.field = field;
        this.problem = problem;
    }

    /**
     * The message with control characters written as escapes: it is printed as one line on a terminal, and a
     * scenario file can put anything (a line break, a NUL) into a field name or a value.
     */
    private static String oneLine(String message) {
        StringBuilder sb = new StringBuilder(message.length());
        for (int i = 0; i < message.length(); i++) {
            char c = message.charAt(i);
            if (c == '\n') {
                sb.append("\\n");
            } else if (Character.isISOControl(c)) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    public String file() {
        return file;
    }

    public String field() {
        return field;
    }

    public String problem() {
        return problem;
    }
}
