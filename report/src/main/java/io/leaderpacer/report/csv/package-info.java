/**
 * CSV files through Jackson: a {@link io.leaderpacer.report.csv.CsvFormat} is one file's columns and the row record
 * bound to them, used by both the code that writes the file and the code that reads it.
 *
 * <p>Why one format per file: a column renamed on one side and not on the other used to show up only as a wrong
 * figure downstream. Numbers are written with a fixed count of decimals ({@link io.leaderpacer.report.csv.Decimals},
 * 3 unless a column says otherwise) in a locale-free form, an unknown number as an empty cell; files are read by
 * column name, so a file with more columns, or with fewer where the reader does not need them, stays readable.
 */
package io.leaderpacer.report.csv;
