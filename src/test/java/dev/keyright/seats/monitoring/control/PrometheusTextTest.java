package dev.keyright.seats.monitoring.control;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {

    @Test
    void aFamilyIsItsHelpItsTypeThenItsSamples() {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("license", "lic_1");
        labels.put("product", "acme \"cad\"\\pro\nx");
        String text = new PrometheusText().family("keyright_seats_in_use", "gauge", "Seats held now.")
                .sample("keyright_seats_in_use", labels, 3)
                .sample("keyright_seats_in_use", Map.of(), 0.25)
                .text();
        assertEquals("# HELP keyright_seats_in_use Seats held now.\n"
                + "# TYPE keyright_seats_in_use gauge\n"
                + "keyright_seats_in_use{license=\"lic_1\",product=\"acme \\\"cad\\\"\\\\pro\\nx\"} 3\n"
                + "keyright_seats_in_use 0.25\n", text);
    }

    @Test
    void numbersAreWrittenAsPrometheusReadsThem() {
        assertEquals("+Inf", PrometheusText.number(Double.POSITIVE_INFINITY));
        assertEquals("12", PrometheusText.number(12));
        assertEquals("0.005", PrometheusText.number(0.005));
    }

    @Test
    void histogramBucketsAreCumulativeWithTheirSumAndCount() {
        RequestDurations durations = new RequestDurations();
        durations.record("GET /x", 3_000_000);      // 3 ms
        durations.record("GET /x", 3_000_000_000L); // 3 s
        RequestDurations.Histogram histogram = durations.byRoute().get("GET /x");
        long[] cumulative = histogram.cumulative();
        assertEquals(1, cumulative[0], "<= 5 ms");
        assertEquals(1, cumulative[8], "<= 2.5 s");
        assertEquals(2, cumulative[9], "<= 5 s");
        assertEquals(2, cumulative[RequestDurations.BOUNDS.length - 1], "+Inf");
        assertEquals(2, histogram.count());
        assertEquals(3.003, histogram.totalSeconds(), 1e-9);
    }
}
