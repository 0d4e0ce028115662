package dev.audioengine.blocks;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.CompiledGraph;
import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.testkit.Closeness;
import dev.audioengine.reference.ReferenceEvaluator;
import java.util.Map;

/**
 * Runs a block's graph through an AudioEngine on the CPU backend and compares its output with the
 * float64 ReferenceEvaluator on the same graph and inputs.
 */
final class BlockCheck {
    /** F32 kernels against float64: a real indexing or formula bug is orders of magnitude above this. */
    static final double NMSE = 1e-9;

    private BlockCheck() {}

    static AudioEngine cpu() {
        return AudioEngine.builder().backend("cpu").threads(2).build();
    }

    /** The engine's output (first graph output) after checking it against the reference. */
    static float[] run(AudioEngine engine, String what, Graph graph, Map<String, HostTensor> inputs, long seed) {
        double[] expected =
                ReferenceEvaluator.evaluate(graph, inputs, graph.outputs().getFirst());
        try (CompiledGraph compiled = engine.compile(graph);
                CompiledGraph.Outputs out = compiled.run(inputs)) {
            float[] got = out.get(0).toFloatArray();
            Closeness.assertNmse(
                    what + " on the CPU vs float64 reference",
                    graph.outputs().getFirst().shape(),
                    seed,
                    got,
                    expected,
                    NMSE);
            return got;
        }
    }

    static double[] widen(float[] f) {
        double[] d = new double[f.length];
        for (int i = 0; i < f.length; i++) d[i] = f[i];
        return d;
    }
}
