package dev.keyright.seats.web;

import dev.keyright.seats.problems.FieldError;
import dev.keyright.seats.problems.InvalidRequestException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Path;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Binds a request's strict JSON object ({@link JsonBodies}) to a request record, and has Bean Validation
 * judge the values by the record's own constraint annotations, with the messages they carry. What a JSON
 * binding would do silently (take a number for a string, drop an unknown member) is refused here, from
 * the record's components: members are {@code String}, {@code Integer} or a nested record. Every problem
 * is named in one refusal, in the order of the record's components; one problem per member.
 */
public final class RequestRecords {

    private static final Validator VALIDATOR = Validation.buildDefaultValidatorFactory().getValidator();

    private RequestRecords() {
    }

    public static <R extends Record> R bind(JsonObject json, Class<R> type) {
        List<Ranked> errors = new ArrayList<>();
        R record = construct(json, type, "", List.of(), errors);
        Set<String> refused = errors.stream().map(e -> e.error().field()).collect(Collectors.toSet());
        for (ConstraintViolation<R> violation : VALIDATOR.validate(record)) {
            String field = fieldOf(violation.getPropertyPath());
            if (refused.add(field)) {
                errors.add(new Ranked(rank(type, field), new FieldError(field, violation.getMessage())));
            }
        }
        if (!errors.isEmpty()) {
            throw new InvalidRequestException(errors.stream().sorted(Comparator.comparing(Ranked::rank, RequestRecords::compare))
                    .map(Ranked::error).toList());
        }
        return record;
    }

    private static <R> R construct(JsonObject json, Class<R> type, String prefix, List<Integer> rank, List<Ranked> errors) {
        RecordComponent[] components = type.getRecordComponents();
        Set<String> names = Arrays.stream(components).map(RecordComponent::getName).collect(Collectors.toSet());
        for (String member : json.keySet()) {
            if (!names.contains(member)) {
                errors.add(new Ranked(append(rank, -1), new FieldError(prefix + JsonBodies.printable(member), "is not a known field")));
            }
        }
        Object[] values = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            values[i] = value(json.get(components[i].getName()), components[i], prefix, append(rank, i), errors);
        }
        try {
            return type.getDeclaredConstructor(Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new))
                    .newInstance(values);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot construct the request record " + type.getName(), e);
        }
    }

    private static Object value(JsonValue value, RecordComponent component, String prefix, List<Integer> rank, List<Ranked> errors) {
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return null;
        }
        String field = prefix + component.getName();
        Class<?> type = component.getType();
        String refusal;
        if (type == String.class) {
            if (value.getValueType() == JsonValue.ValueType.STRING) {
                return ((JsonString) value).getString();
            }
            refusal = "must be a string";
        } else if (type == Integer.class) {
            if (value.getValueType() == JsonValue.ValueType.NUMBER) {
                long number = ((JsonNumber) value).longValue(); // a whole number of at most 18 digits (JsonBodies)
                if (number == (int) number) {
                    return (int) number;
                }
                refusal = rangeOf(component);
            } else {
                refusal = "must be a whole number";
            }
        } else if (type.isRecord()) {
            if (value.getValueType() == JsonValue.ValueType.OBJECT) {
                return construct(value.asJsonObject(), type, field + ".", rank, errors);
            }
            refusal = "must be an object with optional " + Arrays.stream(type.getRecordComponents())
                    .map(c -> "'" + c.getName() + "'").collect(Collectors.joining(" and "));
        } else {
            throw new IllegalStateException("No JSON binding for " + type.getName() + " in " + component);
        }
        errors.add(new Ranked(rank, new FieldError(field, refusal)));
        return null;
    }

    /** A number too large for its member breaks the member's range, when it has one. */
    private static String rangeOf(RecordComponent component) {
        try {
            var field = component.getDeclaringRecord().getDeclaredField(component.getName());
            return Stream.of(field.getAnnotation(Max.class), field.getAnnotation(Min.class))
                    .filter(java.util.Objects::nonNull)
                    .map(range -> range instanceof Max max ? max.message() : ((Min) range).message())
                    .findFirst().orElse("must be a whole number");
        } catch (NoSuchFieldException e) {
            return "must be a whole number";
        }
    }

    private static String fieldOf(Path path) {
        List<String> names = new ArrayList<>();
        path.forEach(node -> {
            if (node.getName() != null && node.getKind() == jakarta.validation.ElementKind.PROPERTY) {
                names.add(node.getName());
            }
        });
        return String.join(".", names);
    }

    /** Where a member stands in the record, component by component, nested records included. */
    private static List<Integer> rank(Class<?> type, String field) {
        List<Integer> rank = new ArrayList<>();
        Class<?> current = type;
        for (String name : field.split("\\.")) {
            RecordComponent[] components = current == null ? new RecordComponent[0] : current.getRecordComponents();
            int index = 0;
            while (index < components.length && !components[index].getName().equals(name)) {
                index++;
            }
            rank.add(index);
            current = index < components.length && components[index].getType().isRecord() ? components[index].getType() : null;
        }
        return rank;
    }

    private static List<Integer> append(List<Integer> rank, int index) {
        List<Integer> longer = new ArrayList<>(rank);
        longer.add(index);
        return List.copyOf(longer);
    }

    private static int compare(List<Integer> a, List<Integer> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int order = Integer.compare(a.get(i), b.get(i));
            if (order != 0) {
                return order;
            }
        }
        return Integer.compare(a.size(), b.size());
    }

    private record Ranked(List<Integer> rank, FieldError error) {
    }
}
