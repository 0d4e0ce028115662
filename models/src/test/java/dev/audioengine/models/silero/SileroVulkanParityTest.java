package dev.audioengine.models.silero;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.BackendType;
import dev.audioengine.api.exec.FallbackPolicy;
import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.model.ModelFile;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Silero VAD on the Vulkan backend (lavapipe in CI) against ONNX Runtime: every node must run
 * natively (CPU fallback off, so compiling fails otherwise) and the per-chunk probabilities over
 * whole files must match within the same 1e-4 as the CPU backend's parity test.
 */
class SileroVulkanParityTest {
    private static final double TOLERANCE = 1e-4;

    @Test
    void probabilitiesMatchOnnxRuntimeOnVulkan() throws Exception {
        BackendRegistry registry = BackendRegistry.load();
        assumeTrue(
                registry.providers().stream()
                        .anyMatch(
                                p -> p.type() == BackendType.VULKAN && p.probe().available()),
                "no Vulkan device here (CI installs libvulkan1 and mesa-vulkan-drivers)");
        List<String> report = new ArrayList<>();
        try (AudioEngine engine = AudioEngine.builder()
                .backend("vulkan")
                .fallback(FallbackPolicy.FAIL)
                .build()) {
            for (ModelFile file : SileroFixtures.MODELS) {
                try (SileroVad vad = SileroVad.load(engine, SileroFixtures.model(file))) {
                    for (SileroFixtures.Audio a : SileroFixtures.audio()) {
                        float[] expected;
                        try (OrtSilero ort = new OrtSilero(SileroFixtures.model(file), a.rate())) {
                            expected = ort.probabilities(a.samples());
                        }
                        float[] got = vad.probabilities(a.samples(), a.rate());
                        assertThat(got).as("%s %s chunk count", file.name(), a).hasSameSizeAs(expected);
                        double max = SileroParityTest.maxAbsDiff(got, expected);
                        report.add(String.format(
                                "Vulkan (%s) %s %-60s %5d chunks  max|diff| %.2e",
                                engine.device().name(), vad.version(), a, got.length, max));
                        assertThat(max).as("%s on %s", file.name(), a).isLessThan(TOLERANCE);
                    }
                }
            }
        }
        report.forEach(System.out::println);
    }
}
