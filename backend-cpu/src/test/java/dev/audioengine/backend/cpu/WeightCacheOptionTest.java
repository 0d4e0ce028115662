package dev.audioengine.backend.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.CompiledGraph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@code cpu.weight-cache-mb} bounds the Java heap the backend keeps weights in across graphs: an eighth of the heap by
 * default (at most 512 MB), any number of megabytes when given, 0 to keep none. Without the cache a convolution the
 * DFT path would take runs directly, with the same result within float rounding.
 */
class WeightCacheOptionTest {

    @Test
    void theBudgetIsAnEighthOfTheHeapAtMost512MbOrWhatIsGiven() {
        assertThat(CpuBackendProvider.weightCacheBytes("auto", 1200L << 20)).isEqualTo(150L << 20);
        assertThat(CpuBackendProvider.weightCacheBytes("auto", 16L << 30)).isEqualTo(512L << 20);
        assertThat(CpuBackendProvider.weightCacheBytes("1024", 1200L << 20)).isEqualTo(1024L << 20);
        assertThat(CpuBackendProvider.weightCacheBytes("0", 1L << 30)).isZero();
        for (String bad : new String[] {"-1", "lots", "1.5", ""}) {
            assertThatThrownBy(() -> CpuBackendProvider.weightCacheBytes(bad, 1L << 30))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("cpu.weight-cache-mb must be auto or a number of megabytes")
                    .hasMessageContaining("'" + bad + "'");
        }
    }

    /** Kokoro's dilated K = 11 generator conv at 128 channels: through the DFT with the cache, directly without it. */
    @Test
    void withoutTheCacheAConvolutionRunsDirectlyWithTheSameResult() {
        Random random = new Random(11);
        int cin = 128, cout = 128, t = 600, k = 11;
        float[] x = new float[cin * t], w = new float[cout * cin * k];
        for (int i = 0; i < x.length; i++) x[i] = (float) random.nextGaussian();
        for (int i = 0; i < w.length; i++) w[i] = (float) random.nextGaussian();
        float[] spectral = conv(x, w, cin, cout, t, k, "auto"), direct = conv(x, w, cin, cout, t, k, "0");
        double err = 0, ref = 0;
        for (int i = 0; i < direct.length; i++) {
            err += (spectral[i] - direct[i]) * (double) (spectral[i] - direct[i]);
            ref += direct[i] * (double) direct[i];
        }
        assertThat(err / ref)
                .as("NMSE of the DFT path against direct convolution")
                .isLessThan(1e-11)
                .isPositive();
    }

    private static float[] conv(float[] x, float[] w, int cin, int cout, int t, int k, String cacheMb) {
        try (AudioEngine e = AudioEngine.builder()
                        .backend("cpu")
                        .threads(1)
                        .option("cpu.weight-cache-mb", cacheMb)
                        .build();
                HostTensor wh = HostTensor.ofFloats(Shape.of(cout, cin, k), w);
                HostTensor xh = HostTensor.ofFloats(Shape.of(1, cin, t), x)) {
            GraphBuilder g = new GraphBuilder();
            Tensor y = g.conv1d(g.input("x", Shape.of(1, cin, t)), g.constant(wh), null, 1, 25, 5, 1);
            try (CompiledGraph cg = e.compile(g.build(y));
                    CompiledGraph.Outputs out = cg.run(Map.of("x", xh))) {
                return out.get(0).toFloatArray();
            }
        }
    }
}
