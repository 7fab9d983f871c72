package io.leaderpacer.simulator.scenario;

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
        super(file + (field.isEmpty() ? "" : ": field '" + field + "'") + ": " + problem);
        this.file = file;
        this.field = field;
        this.problem = problem;
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
