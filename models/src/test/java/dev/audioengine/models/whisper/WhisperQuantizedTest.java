package dev.audioengine.models.whisper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.models.whisper.WhisperNetwork.WhisperConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * whisper.cpp's quantized files: the seeded random model written in F16, quantized by whisper.cpp's own tool to each
 * type it writes, then greedy decoding by whisper-cli and by the engine on that file must take the same tokens with
 * the same probabilities, as the F16 parity test requires (a parting only at a near tie, here at any token).
 * The engine reads every one of them in its own types (the CPU multiplies by their blocks; the dequantization of all
 * of them is checked value for value against ggml's in the weights module's GgmlBlocksTest); whisper.cpp multiplies by
 * the
 * quantized blocks with activations rounded to 8 bits, hence a wider tolerance than F16's. d = 256: the
 * k-quants' 256-value super-blocks need rows of that length.
 */
class WhisperQuantizedTest {
    /**
     * Token probabilities within this of whisper.cpp's, for every type: its 8-bit activations, not the weights' type,
     * set the size of the difference (q8_0 differs as much as q2_K: 0.01-0.052 seen over 60 runs of fresh seeds,
     * where the F16 file of the same shape differs by 1e-3); a misread block gives other tokens altogether.
     */
    private static final double TOLERANCE = 0.1;

    private static final WhisperConfig CONFIG = new WhisperConfig(51865, 1500, 256, 4, 2, 448, 256, 4, 2, 80);

    @BeforeAll
    static void build() throws Exception {
        WhisperCppParityTest.build();
    }

    /**
     * Which stored types a file's projections keep: those every backend multiplies (F16, Q8_0, Q4_0), and BF16, Q5_0,
     * Q5_1, Q4_1 and the k-quants only where its capability is effective (the CPU declares them; a user's switch takes
     * one away, and those weights then load as F32).
     */
    @org.junit.jupiter.api.Test
    void storedTypesKeptFollowTheEffectiveCapabilities() {
        try (AudioEngine cpu = AudioEngine.builder().backend("cpu").threads(1).build();
                AudioEngine without = AudioEngine.builder()
                        .backend("cpu")
                        .threads(1)
                        .capability("-Q5_1_WEIGHTS")
                        .capability("-Q6_K_WEIGHTS")
                        .capability("-BF16_WEIGHTS")
                        .build()) {
            assertThat(WhisperModel.storedTypesKept(cpu.effectiveCapabilities(WhisperModel.USES)))
                    .containsExactlyInAnyOrder(
                            DType.F16,
                            DType.BF16,
                            DType.Q8_0,
                            DType.Q4_0,
                            DType.Q5_0,
                            DType.Q5_1,
                            DType.Q4_1,
                            DType.Q6_K,
                            DType.Q4_K,
                            DType.Q5_K,
                            DType.Q3_K,
                            DType.Q2_K);
            assertThat(WhisperModel.storedTypesKept(without.effectiveCapabilities(WhisperModel.USES)))
                    .containsExactlyInAnyOrder(
                            DType.F16,
                            DType.Q8_0,
                            DType.Q4_0,
                            DType.Q5_0,
                            DType.Q4_1,
                            DType.Q4_K,
                            DType.Q5_K,
                            DType.Q3_K,
                            DType.Q2_K);
            assertThat(WhisperModel.storedTypesKept(java.util.Set.of()))
                    .containsExactlyInAnyOrder(DType.F16, DType.Q8_0, DType.Q4_0);
        }
    }

    @ParameterizedTest
    @CsvSource({"q8_0", "q6_k", "q5_1", "q5_0", "q5_k", "q4_1", "q4_0", "q4_k", "q3_k", "q2_k"})
    void greedyTokensMatchWhisperCpp(String type, @TempDir Path dir) throws Exception {
        new WhisperCppParityTest().quantized(dir, CONFIG, type, TOLERANCE);
    }

    /**
     * The same on Vulkan (lavapipe in CI), CPU fallback off, for the types its shaders decode since it declares
     * Q5_0_WEIGHTS, Q5_1_WEIGHTS, Q4_1_WEIGHTS and the k-quants' capabilities: the projections stay in their blocks
     * there (storedTypesKept) and the matmuls, gemvs and get_rows read them on the device. q5_0, the type of
     * whisper.cpp's released large files, and q4_K for the k-quants: each type costs about 85 s on lavapipe, and
     * the conformance cases already check every type's decode on Vulkan; q5_1 and q4_1 passed here too when listed,
     * and so did q6_K, q5_K, q3_K and q2_K (largest probability differences 0.021-0.062; 2026-12-06).
     */
    @ParameterizedTest
    @CsvSource({"q5_0", "q4_k"})
    void greedyTokensMatchWhisperCppOnVulkan(String type, @TempDir Path dir) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                dev.audioengine.api.registry.BackendRegistry.load().providers().stream()
                        .anyMatch(p -> p.type() == dev.audioengine.api.BackendType.VULKAN
                                && p.probe().available()),
                "no Vulkan device here (CI installs libvulkan1 and mesa-vulkan-drivers)");
        try (AudioEngine vulkan = AudioEngine.builder().backend("vulkan").build()) {
            assertThat(WhisperModel.storedTypesKept(vulkan.effectiveCapabilities(WhisperModel.USES)))
                    .contains(DType.valueOf(type.toUpperCase(java.util.Locale.ROOT)));
        }
        new WhisperCppParityTest().quantized(dir, CONFIG, type, TOLERANCE, "vulkan");
    }

    /**
     * An F16 file's projections stay F16 on Vulkan too (every backend multiplies F16 weights; storedTypesKept), so the
     * matmuls and the tied head read the file's halves on the device; the tokens and probabilities must still be
     * whisper.cpp's within the F16 tolerance of {@link WhisperCppParityTest}.
     */
    @org.junit.jupiter.api.Test
    void f16ProjectionsStayF16AndMatchWhisperCppOnVulkan(@TempDir Path dir) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                dev.audioengine.api.registry.BackendRegistry.load().providers().stream()
                        .anyMatch(p -> p.type() == dev.audioengine.api.BackendType.VULKAN
                                && p.probe().available()),
                "no Vulkan device here (CI installs libvulkan1 and mesa-vulkan-drivers)");
        new WhisperCppParityTest().quantized(dir, CONFIG, null, 3e-3, "vulkan");
    }
}
