package dev.keyright.seats.monitoring.control;

import java.util.Map;

/**
 * The Prometheus text exposition format (version 0.0.4), written family by family: a family's {@code HELP}
 * and {@code TYPE} lines, then all its samples. Label values are escaped (backslash, double quote, line feed).
 */
public final class PrometheusText {

    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final StringBuilder text = new StringBuilder();

    /** Starts a family: {@code type} is {@code gauge}, {@code counter} or {@code histogram}. */
    public PrometheusText family(String name, String type, String help) {
        text.append("# HELP ").append(name).append(' ').append(help.replace("\\", "\\\\").replace("\n", "\\n")).append('\n');
        text.append("# TYPE ").append(name).append(' ').append(type).append('\n');
        return this;
    }

    public PrometheusText sample(String name, Map<String, String> labels, double value) {
        text.append(name);
        if (!labels.isEmpty()) {
            text.append('{');
            boolean first = true;
            for (Map.Entry<String, String> label : labels.entrySet()) {
                if (!first) {
                    text.append(',');
                }
                first = false;
                text.append(label.getKey()).append("=\"").append(escape(label.getValue())).append('"');
            }
            text.append('}');
        }
        text.append(' ').append(number(value)).append('\n');
        return this;
    }

    public String text() {
        return text.toString();
    }

    static String escape(String value) {
        return String.valueOf(value).replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    static String number(double value) {
        if (value == Double.POSITIVE_INFINITY) {
            return "+Inf";
        }
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return String.valueOf((long) value);
        }
        return String.valueOf(value);
    }
}
