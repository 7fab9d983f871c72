package io.leaderpacer.report;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/** The page must reference the uPlot the build put on the class path: a pom bump must not break reports at run time. */
class UplotVersionTest {

    @Test
    void pagesUplotVersion_isTheWebjarOnTheClassPath() throws IOException {
        Properties webjar = new Properties();
        try (InputStream in = getClass()
                .getClassLoader()
                .getResourceAsStream("META-INF/maven/org.webjars.npm/uplot/pom.properties")) {
            assertThat(in)
                    .as("the uPlot webjar's pom.properties on the class path")
                    .isNotNull();
            webjar.load(in);
        }
        assertThat(UplotVersion.VERSION).isEqualTo(webjar.getProperty("version"));
        for (String file : new String[] {"uPlot.iife.min.js", "uPlot.min.css"}) {
            assertThat(getClass().getClassLoader().getResource(ChartPage.UPLOT_DIST + file))
                    .as("%s%s on the class path", ChartPage.UPLOT_DIST, file)
                    .isNotNull();
        }
    }
}
