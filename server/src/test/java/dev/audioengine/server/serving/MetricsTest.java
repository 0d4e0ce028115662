package dev.audioengine.server.serving;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.server.http.RequestLog;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Prometheus text: what a scraper parses. */
class MetricsTest {
    @Test
    void countsHistogramsAndGaugesInTheExpositionFormat() {
        Metrics m = new Metrics();
        m.started();
        m.finished("/v1/audio/vad", 200, 0.003);
        m.started();
        m.finished("/v1/audio/vad", 200, 0.3);
        m.started();
        m.finished("/v1/audio/vad", 503, 200);
        m.started();
        String text = m.render(List.of());
        assertThat(text)
                .contains("# TYPE audioengine_requests_total counter\n")
                .contains("audioengine_requests_total{endpoint=\"/v1/audio/vad\",status=\"200\"} 2\n")
                .contains("audioengine_requests_total{endpoint=\"/v1/audio/vad\",status=\"503\"} 1\n")
                .contains("# TYPE audioengine_request_duration_seconds histogram\n")
                .contains("audioengine_request_duration_seconds_bucket{endpoint=\"/v1/audio/vad\",le=\"0.005\"} 1\n")
                .contains("audioengine_request_duration_seconds_bucket{endpoint=\"/v1/audio/vad\",le=\"0.5\"} 2\n")
                .contains("audioengine_request_duration_seconds_bucket{endpoint=\"/v1/audio/vad\",le=\"120\"} 2\n")
                .contains("audioengine_request_duration_seconds_bucket{endpoint=\"/v1/audio/vad\",le=\"+Inf\"} 3\n")
                .contains("audioengine_request_duration_seconds_sum{endpoint=\"/v1/audio/vad\"} 200.303\n")
                .contains("audioengine_request_duration_seconds_count{endpoint=\"/v1/audio/vad\"} 3\n")
                .contains("audioengine_requests_in_flight 1\n");
        for (String line : text.split("\n")) {
            assertThat(line)
                    .matches(
                            "# (HELP|TYPE) [a-z_]+ .+|[a-z_]+(\\{[a-z_]+=\"[^\"]*\"(,[a-z_]+=\"[^\"]*\")*})? -?[0-9.E+-]+");
        }
    }

    @Test
    void deviceMemoryWhereTheBackendReportsIt() {
        Metrics m = new Metrics();
        String gpu = m.render(
                List.of(),
                "NVIDIA \"H200\"",
                java.util.Optional.of(new dev.audioengine.api.spi.DeviceMemory(100, 1000)));
        assertThat(gpu)
                .contains("# TYPE audioengine_device_memory_bytes gauge\n")
                .contains("audioengine_device_memory_bytes{device=\"NVIDIA \\\"H200\\\"\",kind=\"used\"} 900\n")
                .contains("audioengine_device_memory_bytes{device=\"NVIDIA \\\"H200\\\"\",kind=\"total\"} 1000\n");
        assertThat(m.render(List.of(), "CPU", java.util.Optional.empty()))
                .contains("# TYPE audioengine_device_memory_bytes gauge\n")
                .doesNotContain("audioengine_device_memory_bytes{");
    }

    @Test
    void endpointLabelsAreTheRoutesNeverARequestsPath() {
        assertThat(RequestLog.endpoint("/v1/audio/transcriptions")).isEqualTo("/v1/audio/transcriptions");
        assertThat(RequestLog.endpoint("/v1/models/moonshine-tiny")).isEqualTo("/v1/models/{id}");
        assertThat(RequestLog.endpoint("/wp-admin/" + "x".repeat(100))).isEqualTo("other");
    }
}
