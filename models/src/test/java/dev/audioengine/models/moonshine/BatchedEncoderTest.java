package dev.audioengine.models.moonshine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.CompiledGraph;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.models.moonshine.MoonshineNetwork.MoonshineConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The batched encoder (windows of different lengths padded to one, MoonshineNetwork.batchEncoder) gives each window
 * the encoder states it gets alone: three pieces of Debian recordings of odd lengths, padded to 5 s in a run of four
 * (the fourth a silent filler), against the per-length encoder on each piece. A control shows the check can fail: the
 * per-length encoder run on a piece padded with zeros (GroupNorm and attention over the padding) is far off.
 */
class BatchedEncoderTest {
    private static final int[] LENGTHS = {23_457, 40_001, 71_999};
    private static final int PADDED = 80_000;

    @Test
    void eachWindowOfABatchEncodesAsAlone() throws Exception {
        try (AudioEngine engine =
                        AudioEngine.builder().backend("cpu").threads(2).build();
                MoonshineModel model =
                        MoonshineModel.load(engine, MoonshineFixtures.tiny(), MoonshineFixtures.tokenizer())) {
            List<float[]> windows = new ArrayList<>();
            List<MoonshineFixtures.Utterance> set = MoonshineFixtures.debianSet();
            for (int i = 0; i < LENGTHS.length; i++)
                windows.add(java.util.Arrays.copyOfRange(set.get(i).samples(), 1_000, 1_000 + LENGTHS[i]));
            MoonshineConfig c = model.config();
            int capacity = (int) MoonshineConfig.frames(PADDED);
            float[] batched;
            int frames = (int) MoonshineConfig.frames(PADDED), d = c.hidden();
            try (DecoderCache cache = new DecoderCache(engine, c, 4, 8, capacity);
                    CompiledGraph g = engine.compile(
                            MoonshineNetwork.batchEncoder(
                                    c, model.weights().encoder, model.weights().decoder, 4, PADDED, 4, capacity, true),
                            cache.cross())) {
                Map<String, HostTensor> in = new HashMap<>();
                float[] audio = new float[4 * PADDED];
                int[] stem = new int[4], lengths = new int[4];
                for (int w = 0; w < 4; w++) {
                    int n = w < 3 ? LENGTHS[w] : PADDED;
                    if (w < 3) System.arraycopy(windows.get(w), 0, audio, w * PADDED, n);
                    stem[w] = (int) MoonshineNetwork.stemFrames(n);
                    lengths[w] = (int) MoonshineConfig.frames(n);
                    in.put(MoonshineNetwork.SLOT + w, HostTensor.ofInts(Shape.of(1), w < 3 ? w : 0));
                }
                in.put(MoonshineNetwork.AUDIO, HostTensor.ofFloats(Shape.of(4, 1, PADDED), audio));
                in.put(MoonshineNetwork.STEM_LENGTH, HostTensor.ofInts(Shape.of(4), stem));
                in.put(MoonshineNetwork.FRAME_LENGTH, HostTensor.ofInts(Shape.of(4), lengths));
                try (CompiledGraph.Outputs out = g.run(in)) {
                    HostTensor states = out.get(0);
                    assertThat(states.shape()).isEqualTo(Shape.of(4, frames, d));
                    batched = states.toFloatArray();
                } finally {
                    in.values().forEach(HostTensor::close);
                }
            }
            for (int w = 0; w < 3; w++) {
                float[] alone;
                try (HostTensor t = model.encoderStates(windows.get(w))) {
                    alone = t.toFloatArray();
                }
                int n = (int) MoonshineConfig.frames(LENGTHS[w]);
                assertThat(alone).hasSize(n * d);
                float[] row = java.util.Arrays.copyOfRange(batched, w * frames * d, (w * frames + n) * d);
                assertThat(maxError(row, alone))
                        .as("window %d of %d frames", w, n)
                        .isLessThan(1e-4);

                float[] zeroPadded = java.util.Arrays.copyOf(windows.get(w), PADDED);
                try (HostTensor t = model.encoderStates(zeroPadded)) {
                    float[] unmasked = java.util.Arrays.copyOf(t.toFloatArray(), n * d);
                    assertThat(maxError(unmasked, alone))
                            .as("padding without masks changes window %d (the check above can fail)", w)
                            .isGreaterThan(1e-2);
                }
            }
        }
    }

    /** Largest absolute difference over the largest magnitude of the reference. */
    private static double maxError(float[] got, float[] want) {
        double diff = 0, scale = 0;
        for (int i = 0; i < want.length; i++) {
            diff = Math.max(diff, Math.abs(got[i] - want[i]));
            scale = Math.max(scale, Math.abs(want[i]));
        }
        return diff / scale;
    }
}
