package io.leaderpacer.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The version of the uPlot webjar the build put on the class path.
 *
 * <p>Why from the build: the page reads uPlot's files from the webjar's versioned directory
 * ({@code META-INF/resources/webjars/uplot/<version>/}), so a version written here by hand broke every report at run
 * time as soon as the pom's {@code uplot.version} moved on. The build writes that property into
 * {@code uplot.properties} (resource filtering), and this class reads it once.
 */
final class UplotVersion {

    /** The resource the build writes; beside this class. */
    static final String RESOURCE = "uplot.properties";

    /** The webjar's version, e.g. {@code 1.6.30}. */
    static final String VERSION = read();

    private UplotVersion() {}

    private static String read() {
        try (InputStream in = UplotVersion.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing beside " + UplotVersion.class.getName()
                        + ": the report module was not built by Maven");
            }
            Properties p = new Properties();
            p.load(in);
            String version = p.getProperty("version", "").trim();
            if (version.isEmpty() || version.startsWith("${")) {
                throw new IllegalStateException(
                        RESOURCE + " holds no uPlot version (" + version + "): the build did not filter it");
            }
            return version;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }
}
