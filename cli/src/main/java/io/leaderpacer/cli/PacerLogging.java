package io.leaderpacer.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy;
import ch.qos.logback.core.util.FileSize;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where each {@code pacer} command logs, set up once its command line is parsed.
 *
 * <p>Why: a short command (plan, config, simulate, status) is read by a person: it prints its output and its
 * errors, nothing else, unless {@code --verbose} asks for the log. {@code pacer run} is a service: it logs to
 * standard out, as systemd and Kubernetes expect, and to a file only when {@code --log-file} names one. A log file
 * is always appended to and rolled over by size and day, never truncated: several {@code pacer} processes in one
 * directory must never destroy each other's logs. The demo and the load test print their own progress and keep the
 * agent's detail in a file.
 * Every line carries an ISO-8601 date, so that lines of a long-running agent can be placed in time.
 */
final class PacerLogging {

    /** What kind of command runs, which decides where its log goes. */
    enum Mode {
        /** A command a person reads: only errors on standard error unless verbose. */
        SHORT,
        /** {@code pacer run}: the agent's INFO lines on standard out, or in the log file. */
        SERVICE,
        /**
         * {@code pacer demo} and {@code pacer loadtest}: they print their own progress; the agent's lines and Kafka's
         * warnings go to a file, and only warnings and errors of Leader Pacer's own code to standard error.
         */
        DEMO
    }

    /** The demo's log file when none is given: under the current directory, appended to. */
    static final Path DEMO_LOG_FILE = Path.of("target", "pacer.log");
    /** The logger names of Leader Pacer's own code. */
    static final String OWN_LOGGERS = "io.leaderpacer";
    /** Where a failed command's stack trace is logged (at DEBUG: only with --verbose or in a log file). */
    static final String FAILURE_LOGGER = "pacer.failure";
    /** ISO-8601 with the offset, e.g. 2026-03-01T09:44:50.123Z. */
    static final String DATE = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX}";

    static final String CONSOLE_PATTERN = DATE + " %-5level %logger{0} - %msg%n";
    static final String FILE_PATTERN = DATE + " %-5level [%thread] %logger - %msg%n";
    /** Roll-over: by day and at this size; this many days and this much in all are kept. */
    static final String MAX_FILE_SIZE = "100MB";

    static final int MAX_HISTORY_DAYS = 14;
    static final String TOTAL_SIZE_CAP = "2GB";

    private PacerLogging() {}

    /**
     * Replaces the logging configuration for a command of this mode; a no-op when Logback is not the SLF4J
     * binding (the library embedded in another program).
     *
     * @param verbose the agent's DEBUG lines and Kafka's warnings too
     * @param logFile the file to log to (appended, rolled over), or null
     */
    static void configure(Mode mode, boolean verbose, Path logFile) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return;
        }
        context.reset();
        List<Appender<ILoggingEvent>> own = new ArrayList<>();
        List<Appender<ILoggingEvent>> kafka = new ArrayList<>();
        Level ownLevel;
        Level kafkaLevel;
        switch (mode) {
            case SERVICE -> {
                ownLevel = verbose ? Level.DEBUG : Level.INFO;
                kafkaLevel = verbose ? Level.WARN : Level.ERROR;
                Appender<ILoggingEvent> target =
                        logFile != null ? file(context, logFile) : console(context, "System.out");
                own.add(target);
                kafka.add(target);
            }
            case DEMO -> {
                ownLevel = verbose ? Level.DEBUG : Level.INFO;
                kafkaLevel = Level.WARN;
                Appender<ILoggingEvent> file = file(context, logFile != null ? logFile : DEMO_LOG_FILE);
                Appender<ILoggingEvent> console = console(context, "System.err");
                console.addFilter(threshold(context, verbose ? Level.DEBUG : Level.WARN));
                own.add(console);
                own.add(file);
                kafka.add(file);
            }
            default -> {
                ownLevel = verbose ? Level.DEBUG : Level.ERROR;
                kafkaLevel = verbose ? Level.WARN : Level.OFF;
                Appender<ILoggingEvent> console = console(context, "System.err");
                own.add(console);
                kafka.add(console);
                if (logFile != null) {
                    Appender<ILoggingEvent> file = file(context, logFile);
                    own.add(file);
                    kafka.add(file);
                    ownLevel = verbose ? Level.DEBUG : Level.INFO;
                    kafkaLevel = Level.WARN;
                    console.addFilter(threshold(context, verbose ? Level.DEBUG : Level.ERROR));
                }
            }
        }
        Logger ownLogger = context.getLogger(OWN_LOGGERS);
        ownLogger.setLevel(ownLevel);
        ownLogger.setAdditive(false);
        own.forEach(ownLogger::addAppender);
        Logger failure = context.getLogger(FAILURE_LOGGER);
        failure.setLevel(ownLevel);
        failure.setAdditive(false);
        own.forEach(failure::addAppender);
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(kafkaLevel);
        kafka.forEach(root::addAppender);
    }

    private static Appender<ILoggingEvent> console(LoggerContext context, String target) {
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(context);
        console.setName("console");
        console.setTarget(target);
        console.setEncoder(encoder(context, CONSOLE_PATTERN));
        console.start();
        return console;
    }

    private static Appender<ILoggingEvent> file(LoggerContext context, Path path) {
        RollingFileAppender<ILoggingEvent> file = new RollingFileAppender<>();
        file.setContext(context);
        file.setName("file");
        file.setFile(path.toString());
        file.setAppend(true);
        SizeAndTimeBasedRollingPolicy<ILoggingEvent> policy = new SizeAndTimeBasedRollingPolicy<>();
        policy.setContext(context);
        policy.setParent(file);
        policy.setFileNamePattern(path + ".%d{yyyy-MM-dd}.%i.gz");
        policy.setMaxFileSize(FileSize.valueOf(MAX_FILE_SIZE));
        policy.setMaxHistory(MAX_HISTORY_DAYS);
        policy.setTotalSizeCap(FileSize.valueOf(TOTAL_SIZE_CAP));
        policy.start();
        file.setRollingPolicy(policy);
        file.setEncoder(encoder(context, FILE_PATTERN));
        file.start();
        return file;
    }

    private static PatternLayoutEncoder encoder(LoggerContext context, String pattern) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(pattern);
        encoder.start();
        return encoder;
    }

    private static ch.qos.logback.classic.filter.ThresholdFilter threshold(LoggerContext context, Level level) {
        ch.qos.logback.classic.filter.ThresholdFilter filter = new ch.qos.logback.classic.filter.ThresholdFilter();
        filter.setContext(context);
        filter.setLevel(level.levelStr);
        filter.start();
        return filter;
    }
}
