package dev.audioengine.blocks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.api.testkit.Closeness;
import dev.audioengine.api.testkit.RandomTensors;
import dev.audioengine.api.testkit.Seeds;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Rotary on the CPU against transformers' formula in float64 (Float64Blocks.rotary), full and partial, both pairings. */
class RotaryTest {
    private static AudioEngine engine;

    @BeforeAll
    static void open() {
        engine = BlockCheck.cpu();
    }

    @AfterAll
    static void close() {
        engine.close();
    }

    @ParameterizedTest(name = "head {0}, factor {1}, interleaved {2}, base {3}")
    @CsvSource({"36,0.9,true,10000", "36,1.0,true,10000", "64,0.5,false,10000", "10,1.0,false,500", "14,0.75,true,50000"
    })
    void matchesTransformersFormula(int headDim, double factor, boolean interleaved, float base) {
        long seed = Seeds.fresh();
        RandomTensors r = new RandomTensors(seed);
        Rotary rotary = Rotary.partial(headDim, factor, base, interleaved);
        if (headDim == 36 && factor == 0.9)
            assertThat(rotary.dims()).as("Moonshine tiny").isEqualTo(32);
        int b = 2, h = 3, t = 7;
        int[] positions = r.ints(t, 0, 1500); // decoder steps far into a sequence, not only 0..T-1
        try (HostTensor x = r.f32(Shape.of(b, h, t, headDim));
                HostTensor pos = HostTensor.ofInts(Shape.of(t), positions)) {
            GraphBuilder g = new GraphBuilder();
            Tensor y = rotary.apply(g, g.input("x", x.shape()), g.input("pos", DType.I32, pos.shape()));
            float[] got = BlockCheck.run(engine, "rotary", g.build(y), Map.of("x", x, "pos", pos), seed);
            double[] expect = BlockCheck.widen(x.toFloatArray());
            for (int row = 0; row < b * h; row++) {
                for (int ti = 0; ti < t; ti++)
                    Float64Blocks.rotary(
                            expect, (row * t + ti) * headDim, rotary.dims(), base, interleaved, positions[ti]);
            }
            // float32 angles at positions up to 1500 carry ~1e-4 rad of rounding: the bound allows that, not a wrong
            // pairing
            Closeness.assertMaxAbs("rotary vs transformers' formula", y.shape(), seed, got, expect, 2e-3);
            Closeness.assertNmse("rotary vs transformers' formula", y.shape(), seed, got, expect, 1e-7);
        }
    }
}
