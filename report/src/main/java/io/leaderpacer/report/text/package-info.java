/**
 * Quantities as operators write them in scenario files and on command lines: durations
 * ({@link io.leaderpacer.report.text.DurationText}) and byte sizes ({@link io.leaderpacer.report.text.ByteSize}).
 *
 * <p>Why shared: a calibrated scenario is written from a load test's settings, so both must read the same text as
 * the same number; each parser states its one convention in its help text and refuses what it cannot read with a
 * message saying what it accepts.
 */
package io.leaderpacer.report.text;
