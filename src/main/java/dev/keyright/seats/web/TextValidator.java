package dev.keyright.seats.web;

import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Pattern;

/** Judges a {@link Text} member and names the first rule it breaks. */
public class TextValidator implements ConstraintValidator<Text, String> {

    private int max;
    private Pattern pattern;
    private String rule;
    private boolean instant;

    @Override
    public void initialize(Text text) {
        max = text.max();
        pattern = text.pattern().isEmpty() ? null : Pattern.compile(text.pattern());
        rule = text.rule();
        instant = text.instant();
    }

    @Override
    public boolean isValid(String value, ConstraintValidatorContext context) {
        Optional<String> problem = value == null ? Optional.empty() : problemWith(value);
        problem.ifPresent(message -> {
            context.disableDefaultConstraintViolation();
            context.buildConstraintViolationWithTemplate(literal(message)).addConstraintViolation();
        });
        return problem.isEmpty();
    }

    private Optional<String> problemWith(String text) {
        if (text.isEmpty() || text.length() > max) {
            return Optional.of("must be 1 to " + max + " characters");
        }
        if (pattern != null && (!pattern.matcher(text).matches() || instant && !isInstant(text))) {
            return Optional.of(rule);
        }
        if (pattern == null && text.codePoints().anyMatch(Character::isISOControl)) {
            return Optional.of("must not contain control characters");
        }
        return Optional.empty();
    }

    private static boolean isInstant(String text) {
        try {
            Instant.parse(text);
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    /** A message template that says exactly the text: no parameters, no expressions. */
    private static String literal(String message) {
        return message.replace("\\", "\\\\").replace("{", "\\{").replace("}", "\\}").replace("$", "\\$");
    }
}
