package dev.audioengine.backend.cpu.kernels;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.graph.Op.PadMode;
import dev.audioengine.api.graph.Op.RopeMode;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.backend.cpu.kernels.ReferenceCheck.Layout;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.RepeatedTest;

/**
 * Several kernels in one graph, each reading views of the previous results, so outputs land at
 * non-zero offsets of the planner's arena (reused after their producers die) and inputs arrive
 * as views of intermediate tensors rather than of graph inputs. Bound: NMSE 1e-11, the loosest
 * single-op bound (1e-12) with room for error compounding over nine ops (measured ~1.7e-13).
 */
class ChainedKernelsTest {
    private static AudioEngine engine;

    @BeforeAll
    static void open() {
        engine = AudioEngine.builder()
                .backend("cpu")
                .threads(3)
                .option("cpu.op-threads", "all")
                .build();
    }

    @AfterAll
    static void close() {
        engine.close();
    }

    @RepeatedTest(3)
    void normsActivationsLayoutAndReductionsInOneGraph() {
        try (ReferenceCheck c = new ReferenceCheck()) {
            var g = c.g;
            Tensor x = c.input("x", Shape.of(2, 4, 9, 33), Layout.TRANSPOSED, -2, 2);
            Tensor pos = c.bind("pos", c.random.i32(Shape.of(9), 0, 500));
            Tensor gamma = c.constant(Shape.of(33), 0.5f, 1.5f);
            Tensor h = g.rmsNorm(x, gamma, 1e-6f);
            h = g.rope(g.slice(h, 1, 1, 4), pos, 16, 10000f, RopeMode.NEOX); // [2, 3, 9, 33]
            Tensor scores = g.softmax(g.transpose(h, 2, 3), null, 0.5f); // [2, 3, 33, 9]
            Tensor act = g.gelu(g.slice(scores, 2, 0, 33, 2)); // [2, 3, 17, 9]
            Tensor padded = g.pad(act, PadMode.REFLECT, new long[] {0, 0, 1, 2}, new long[] {0, 1, 0, 3}, 0f);
            Tensor joined = g.concat(1, padded, g.scale(padded, -1f, 0.25f)); // [2, 8, 18, 14]
            Tensor normed = g.groupNorm(g.contiguous(g.permute(joined, 0, 1, 3, 2)), 4, null, null, 1e-5f);
            // (no F16 cast here: rounding to F16 turns float-vs-double noise upstream into whole F16 ulps)
            Tensor out = g.mean(g.layerNorm(g.magnitude(g.reshape(normed, 2, 8, 126, 2)), null, null, 1e-5f), 1, false);
            c.assertNmse(engine, "chain", out, 1e-11);
        }
    }
}
