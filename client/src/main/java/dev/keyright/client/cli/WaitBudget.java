package dev.keyright.client.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads {@code --wait} values: {@code 30s}, {@code 5m}, {@code 1h}, {@code 1h30m}, {@code 500ms}, or bare seconds. */
final class WaitBudget {

    private static final Pattern WHOLE = Pattern.compile("(\\d{1,9}(ms|s|m|h|d))+|\\d{1,9}");
    private static final Pattern PART = Pattern.compile("(\\d{1,9})(ms|s|m|h|d)");

    private WaitBudget() {
    }

    static Duration parse(String text) throws UsageException {
        return parse(text, "--wait");
    }

    /** @param what the option or command the duration is for, as the error message names it */
    static Duration parse(String text, String what) throws UsageException {
        String value = text.trim().toLowerCase();
        if (!WHOLE.matcher(value).matches()) {
            throw new UsageException(what + " takes a duration such as 30s, 5m or 1h, not '" + text + "'");
        }
        if (value.chars().allMatch(Character::isDigit)) return Duration.ofSeconds(Long.parseLong(value));
        Duration total = Duration.ZERO;
        Matcher part = PART.matcher(value);
        while (part.find()) {
            long amount = Long.parseLong(part.group(1));
            switch (part.group(2)) {
                case "ms": total = total.plusMillis(amount); break;
                case "s": total = total.plusSeconds(amount); break;
                case "m": total = total.plusMinutes(amount); break;
                case "h": total = total.plusHours(amount); break;
                default: total = total.plusDays(amount); break;
            }
        }
        return total;
    }

    /** {@code 90s} as {@code 1m30s}, for messages. */
    static String describe(Duration duration) {
        long seconds = duration.toSeconds();
        if (seconds == 0) return duration.toMillis() + "ms";
        StringBuilder out = new StringBuilder();
        if (seconds >= 3600) out.append(seconds / 3600).append('h');
        if (seconds % 3600 >= 60) out.append(seconds % 3600 / 60).append('m');
        if (seconds % 60 > 0) out.append(seconds % 60).append('s');
        return out.toString();
    }
}
