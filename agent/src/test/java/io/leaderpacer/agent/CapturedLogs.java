package io.leaderpacer.agent;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Test support: records every log event of a logger (and its children) while open, at a chosen level.
 *
 * <p>Why: several tests must prove what the agent logs (one line per start-up attempt, no stack traces, no
 * secrets), which needs the real log events, formatted, including any stack trace.
 */
public final class CapturedLogs implements AutoCloseable {

    private final Logger logger;
    private final Level previousLevel;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    private CapturedLogs(String loggerName, Level level) {
        this.logger = (Logger) LoggerFactory.getLogger(loggerName);
        this.previousLevel = logger.getLevel();
        logger.setLevel(level);
        appender.start();
        logger.addAppender(appender);
    }

    /** Captures {@code loggerName} and below at {@code level}. */
    public static CapturedLogs of(String loggerName, Level level) {
        return new CapturedLogs(loggerName, level);
    }

    public synchronized List<ILoggingEvent> events() {
        return new ArrayList<>(appender.list);
    }

    /** Every event as text: level, logger, formatted message and any stack trace. */
    public String text() {
        StringBuilder sb = new StringBuilder();
        for (ILoggingEvent e : events()) {
            sb.append(e.getLevel())
                    .append(' ')
                    .append(e.getLoggerName())
                    .append(" - ")
                    .append(e.getFormattedMessage())
                    .append('\n');
            IThrowableProxy t = e.getThrowableProxy();
            if (t != null) {
                sb.append(ThrowableProxyUtil.asString(t)).append('\n');
            }
        }
        return sb.toString();
    }

    /** Formatted messages of events from loggers whose name ends with {@code simpleName}. */
    public List<String> messagesOf(String simpleName) {
        List<String> out = new ArrayList<>();
        for (ILoggingEvent e : events()) {
            if (e.getLoggerName().endsWith("." + simpleName)) {
                out.add(e.getFormattedMessage());
            }
        }
        return out;
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
        logger.setLevel(previousLevel);
    }
}
