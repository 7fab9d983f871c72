package io.leaderpacer.cli.demo;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.filter.ThresholdFilter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import org.slf4j.LoggerFactory;

import java.util.Iterator;

/**
 * Keeps the agent's per-run INFO lines off the console while the demo prints its own timeline
 * (they still reach the log file): the timeline says the same things in columns.
 */
final class DemoLogging {

    private DemoLogging() {
    }

    /** Raises every console appender of the application's loggers to WARN; a no-op without Logback. */
    static void consoleWarningsOnly() {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return;
        }
        for (Logger logger : context.getLoggerList()) {
            for (Iterator<Appender<ILoggingEvent>> it = logger.iteratorForAppenders(); it.hasNext(); ) {
                Appender<ILoggingEvent> appender = it.next();
                if (appender instanceof ConsoleAppender) {
                    ThresholdFilter filter = new ThresholdFilter();
                    filter.setLevel(Level.WARN.levelStr);
                    filter.setContext(context);
                    filter.start();
                    appender.addFilter(filter);
                }
            }
        }
    }
}
