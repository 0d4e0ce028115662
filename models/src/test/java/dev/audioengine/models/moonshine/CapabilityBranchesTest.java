package dev.audioengine.models.moonshine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.BackendType;
import dev.audioengine.api.exec.FallbackPolicy;
import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.api.tensor.DType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every branch the family takes gives the same transcripts of Debian's recordings: fused attention on and off, and
 * the projections in Q8_0 (the default for the 8-bit export), F32 and BF16; and the Vulkan backend (lavapipe in CI)
 * with every node native gives the CPU's transcript of a short recording. The GPU backends' runs of the same checks
 * are in docs/evidence/moonshine (scripts/gpu/moonshine-gpu-evidence.sh).
 */
class CapabilityBranchesTest {
    private static List<String> transcripts(AudioEngine engine, DType weights, List<MoonshineFixtures.Utterance> set)
            throws Exception {
        MoonshineCheckpoint tiny = MoonshineFixtures.tiny();
        try (MoonshineModel m = weights == null
                ? MoonshineModel.load(engine, tiny, MoonshineFixtures.tokenizer())
                : MoonshineModel.load(engine, tiny, MoonshineFixtures.tokenizer(), weights)) {
            List<String> out = new ArrayList<>();
            for (MoonshineFixtures.Utterance u : set) {
                out.add(m.decode(u.samples(), 0, u.samples().length, (int) (u.seconds() * 6), u.samples().length)
                        .text());
            }
            return out;
        }
    }

    @Test
    void everyCpuBranchGivesTheSameTranscripts() throws Exception {
        List<MoonshineFixtures.Utterance> set = MoonshineFixtures.debianSet();
        List<String> reference;
        try (AudioEngine e = AudioEngine.builder().backend("cpu").threads(2).build()) {
            assertThat(e.effectiveCapabilities(MoonshineModel.USES))
                    .as("the CPU verifies both")
                    .containsAll(MoonshineModel.USES);
            reference = transcripts(e, null, set);
        }
        for (String caps : List.of("+fused_attention", "-fused_attention")) {
            try (AudioEngine e = AudioEngine.builder()
                    .backend("cpu")
                    .threads(2)
                    .capability(caps)
                    .build()) {
                for (DType w : new DType[] {null, DType.F32, DType.BF16}) {
                    assertThat(transcripts(e, w, set))
                            .as("%s, weights %s", caps, w == null ? "default (Q8_0)" : w)
                            .isEqualTo(reference);
                }
            }
        }
    }

    @Test
    void vulkanGivesTheCpusTranscript() throws Exception {
        assumeTrue(
                BackendRegistry.load().providers().stream()
                        .anyMatch(
                                p -> p.type() == BackendType.VULKAN && p.probe().available()),
                "no Vulkan device here (CI installs libvulkan1 and mesa-vulkan-drivers)");
        List<MoonshineFixtures.Utterance> shortOne = MoonshineFixtures.debianSet().stream()
                .filter(u -> u.id().equals("001"))
                .toList();
        List<String> cpu, vulkan;
        try (AudioEngine e = AudioEngine.builder().backend("cpu").threads(1).build()) {
            cpu = transcripts(e, null, shortOne);
        }
        try (AudioEngine e = AudioEngine.builder()
                .backend("vulkan")
                .fallback(FallbackPolicy.FAIL)
                .build()) {
            vulkan = transcripts(e, null, shortOne);
        }
        assertThat(vulkan).isEqualTo(cpu).containsExactly("Ten of clubs.");
    }
}
