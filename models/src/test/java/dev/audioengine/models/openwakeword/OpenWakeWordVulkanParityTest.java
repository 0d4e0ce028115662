package dev.audioengine.models.openwakeword;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.BackendType;
import dev.audioengine.api.exec.FallbackPolicy;
import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.model.task.KeywordDetection;
import dev.audioengine.model.task.KeywordOptions;
import dev.audioengine.model.task.KeywordStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * openWakeWord on the Vulkan backend (lavapipe here and in CI) against ONNX Runtime: every node of the mel, streamed
 * embedding and head graphs must run natively (CPU fallback off, so compiling fails otherwise; LEAKY_RELU and MAX
 * included), and the per-frame scores must match within the CPU parity test's 1e-4, with the same detections.
 */
class OpenWakeWordVulkanParityTest {
    @Test
    void scoresMatchOnnxRuntimeOnVulkan() throws Exception {
        BackendRegistry registry = BackendRegistry.load();
        assumeTrue(
                registry.providers().stream()
                        .anyMatch(
                                p -> p.type() == BackendType.VULKAN && p.probe().available()),
                "no Vulkan device here (CI installs libvulkan1 and mesa-vulkan-drivers)");
        // one clip, streamed one 80 ms frame per call: few graph sizes to compile (lavapipe compiles slowly)
        List<OpenWakeWordFixtures.Audio> clips =
                List.of(OpenWakeWordFixtures.positive(OpenWakeWordFixtures.POSITIVES.getFirst()));
        List<String> report = new ArrayList<>();
        try (AudioEngine engine = AudioEngine.builder()
                        .backend("vulkan")
                        .fallback(FallbackPolicy.FAIL)
                        .build();
                OpenWakeWordSpotter spotter = OpenWakeWordSpotter.load(
                        engine,
                        OpenWakeWordFixtures.mel(),
                        OpenWakeWordFixtures.embedding(),
                        OpenWakeWordFixtures.heads(),
                        "test");
                OrtOpenWakeWord ort = new OrtOpenWakeWord(
                        OpenWakeWordFixtures.mel(), OpenWakeWordFixtures.embedding(), OpenWakeWordFixtures.heads())) {
            assertThat(spotter.keywords()).isEqualTo(ort.keywords());
            for (OpenWakeWordFixtures.Audio clip : clips) {
                float[][] expected = ort.scores(clip.samples());
                List<float[]> rows = new ArrayList<>();
                List<KeywordDetection> found = new ArrayList<>();
                try (KeywordStream s = spotter.stream(KeywordOptions.DEFAULTS)) {
                    float[] x = clip.samples();
                    for (int at = 0; at < x.length; at += 1280) {
                        KeywordStream.Result r = s.accept(x, at, Math.min(1280, x.length - at));
                        rows.addAll(List.of(r.scores()));
                        found.addAll(r.detections());
                    }
                    KeywordStream.Result r = s.finish();
                    rows.addAll(List.of(r.scores()));
                    found.addAll(r.detections());
                }
                float[][] got = rows.toArray(float[][]::new);
                assertThat(got.length).as("frames of %s", clip).isEqualTo(expected.length);
                double max = 0;
                for (int f = 0; f < got.length; f++)
                    max = Math.max(max, OpenWakeWordParityTest.maxDiff(got[f], expected[f]));
                report.add(String.format(
                        Locale.ROOT,
                        "Vulkan (%s) scores %-60s %4d frames max|diff| %.2e detections %s",
                        engine.device().name(),
                        clip,
                        got.length,
                        max,
                        OpenWakeWordParityTest.names(found)));
                assertThat(max).as("scores of %s", clip).isLessThan(1e-4);
                if (clip == clips.getFirst())
                    assertThat(OpenWakeWordParityTest.names(
                                    spotter.detect(clip.samples(), 16000, KeywordOptions.DEFAULTS)))
                            .anyMatch(n -> n.startsWith("hey_jarvis@"));
                assertThat(OpenWakeWordParityTest.names(found))
                        .as("detections in %s", clip)
                        .isEqualTo(OpenWakeWordParityTest.names(
                                OpenWakeWordParityTest.detections(expected, spotter.keywords())));
            }
        }
        report.forEach(System.out::println);
    }
}
