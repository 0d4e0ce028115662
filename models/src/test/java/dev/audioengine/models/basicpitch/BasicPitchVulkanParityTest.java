package dev.audioengine.models.basicpitch;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.BackendType;
import dev.audioengine.api.exec.FallbackPolicy;
import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.audio.WavReader;
import dev.audioengine.model.task.NoteActivations;
import org.junit.jupiter.api.Test;

/**
 * Basic Pitch on the Vulkan backend (lavapipe in CI), every node native (CPU fallback off, so compiling fails
 * otherwise), against the same TF.js reference as {@link BasicPitchParityTest}. Looser than the CPU's bounds: on
 * lavapipe the activations are up to 1.07e-4 off (mean 1.5e-6; the CPU: 1.1e-6), the size of the model's own float32
 * sensitivity (a one-ulp nudge of the input moves them by 2e-4), so some step rounds differently there; the bounds
 * still catch a wrong step (mean 1e-3 or more).
 */
class BasicPitchVulkanParityTest {
    @Test
    void activationsMatchTfjsOnVulkan() throws Exception {
        BackendRegistry registry = BackendRegistry.load();
        assumeTrue(
                registry.providers().stream()
                        .anyMatch(
                                p -> p.type() == BackendType.VULKAN && p.probe().available()),
                "no Vulkan device here (CI installs libvulkan1 and mesa-vulkan-drivers)");
        float[] clip =
                WavReader.read(BasicPitchParityTest.resourcePath("clip.wav")).samples();
        try (AudioEngine engine = AudioEngine.builder()
                        .backend("vulkan")
                        .fallback(FallbackPolicy.FAIL)
                        .build();
                BasicPitchTranscriber t = BasicPitchParityTest.load(engine)) {
            NoteActivations a = t.activations(clip, 22050);
            String on = "Vulkan (" + engine.device().name() + ") ";
            BasicPitchParityTest.check(
                    on + "contours",
                    BasicPitchParityTest.diff(a.contours(), BasicPitchParityTest.matrix("contours", 264)),
                    5e-4,
                    1e-5,
                    1e-3);
            BasicPitchParityTest.check(
                    on + "notes",
                    BasicPitchParityTest.diff(a.notes(), BasicPitchParityTest.matrix("frames", 88)),
                    5e-4,
                    1e-5,
                    1e-3);
            BasicPitchParityTest.check(
                    on + "onsets",
                    BasicPitchParityTest.diff(a.onsets(), BasicPitchParityTest.matrix("onsets", 88)),
                    5e-4,
                    1e-5,
                    1e-3);
        }
    }
}
