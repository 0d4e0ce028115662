package dev.audioengine.blocks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.api.testkit.Closeness;
import dev.audioengine.api.testkit.RandomTensors;
import dev.audioengine.api.testkit.Seeds;
import dev.audioengine.blocks.weights.WeightStore;
import dev.audioengine.reference.ReferenceEvaluator;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The plain-op lowering of ConvTranspose1d (for backends without CONV_TRANSPOSE1D_COL2IM) against the float64
 * reference of the conv_transpose1d op itself, at odd sizes: Kokoro's shapes (stride 10 k 20, stride 6 k 12, the
 * depthwise ×2 pool, the iSTFT's stride 5 k 20) and edges (padding past the kernel, output padding, groups, dilation).
 */
class ConvTranspose1dLoweringTest {
    private static AudioEngine engine;

    @TempDir
    static Path dir;

    @BeforeAll
    static void open() {
        engine = BlockCheck.cpu();
    }

    @AfterAll
    static void close() {
        engine.close();
    }

    @ParameterizedTest(name = "cin {0} cout {1} k {2} stride {3} pad {4} outpad {5} dil {6} groups {7} T {8}")
    @CsvSource({
        "12, 6, 20, 10, 5, 0, 1, 1, 7", // Kokoro ups.0 shape, smaller channels
        "6, 3, 12, 6, 3, 0, 1, 1, 9", // ups.1
        "10, 10, 3, 2, 1, 1, 1, 10, 11", // AdainResBlk1d pool: depthwise ×2
        "22, 1, 20, 5, 0, 0, 1, 1, 13", // the export's iSTFT as a transposed conv
        "5, 7, 4, 3, 0, 2, 1, 1, 6", // stride not dividing the kernel, output padding
        "4, 6, 3, 4, 0, 0, 1, 2, 5", // kernel shorter than the stride: phases without taps
        "3, 5, 5, 2, 6, 1, 1, 1, 9", // padding past the kernel crops whole phases
        "6, 4, 5, 1, 2, 0, 1, 2, 8", // stride 1
        "4, 6, 3, 3, 2, 1, 2, 2, 7", // dilated: the zero-inserted form
        "1, 1, 1, 7, 0, 3, 1, 1, 1"
    }) // one sample
    void plainOpsEqualTheOp(int cin, int cout, int k, int stride, int pad, int outPad, int dil, int groups, int t) {
        long seed = Seeds.fresh();
        RandomTensors r = new RandomTensors(seed);
        RandomCheckpoint ck = new RandomCheckpoint(r)
                .weight("up.weight", cin, cout / groups, k)
                .weight("up.bias", cout);
        try (WeightStore store = ck.open(dir, DType.F32);
                HostTensor x = r.f32(Shape.of(2, cin, t))) {
            ConvTranspose1d
                    up =
                            ConvTranspose1d.load(
                                    store.scope().child("up"),
                                    stride,
                                    pad,
                                    outPad,
                                    dil,
                                    groups,
                                    Set.of(Capability.CONV_TRANSPOSE1D_COL2IM)),
                    plainOps =
                            ConvTranspose1d.load(store.scope().child("up"), stride, pad, outPad, dil, groups, Set.of());
            GraphBuilder op = new GraphBuilder(), plain = new GraphBuilder();
            Graph reference = op.build(up.apply(op, op.input("x", x.shape())));
            assertThat(reference.nodes()).anyMatch(n -> n.op() instanceof dev.audioengine.api.graph.Op.ConvTranspose1d);
            Tensor y = plainOps.apply(plain, plain.input("x", x.shape()));
            Graph lowered = plain.build(y);
            assertThat(y.shape()).isEqualTo(reference.outputs().getFirst().shape());
            assertThat(lowered.nodes()).noneMatch(n -> n.op() instanceof dev.audioengine.api.graph.Op.ConvTranspose1d);
            double[] expected = ReferenceEvaluator.evaluate(
                    reference, Map.of("x", x), reference.outputs().getFirst());
            try (var compiled = engine.compile(lowered);
                    var out = compiled.run(Map.of("x", x))) {
                Closeness.assertNmse(
                        "conv_transpose1d as plain ops vs the op's float64 reference",
                        y.shape(),
                        seed,
                        out.get(0).toFloatArray(),
                        expected,
                        BlockCheck.NMSE);
            }
        }
    }
}
