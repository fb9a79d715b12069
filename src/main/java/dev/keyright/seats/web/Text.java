package dev.keyright.seats.web;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * A text member of a request: 1 to {@link #max} characters, then either matching {@link #pattern} (the
 * refusal says {@link #rule}) or, without a pattern, free of control characters. One refusal per member,
 * the first rule it breaks. A missing member is {@code @NotNull}'s to judge.
 */
@Target({FIELD, METHOD, PARAMETER})
@Retention(RUNTIME)
@Constraint(validatedBy = TextValidator.class)
public @interface Text {

    int max();

    /** A regular expression the whole text must match; empty for free text. */
    String pattern() default "";

    /** What the pattern means, in words: the refusal's message. */
    String rule() default "";

    /** Free text that must also be an RFC 3339 timestamp in UTC (then the pattern guards its shape). */
    boolean instant() default false;

    String message() default "is not acceptable";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}
