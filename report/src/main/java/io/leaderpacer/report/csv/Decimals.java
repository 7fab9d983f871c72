package io.leaderpacer.report.csv;

import com.fasterxml.jackson.annotation.JacksonAnnotation;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How many decimals a {@code double} column of a row record is written with (3 without this annotation): the file's
 * text is part of its format, and the same figures must give the same bytes on every machine.
 */
@JacksonAnnotation
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER})
public @interface Decimals {
    int value();
}
