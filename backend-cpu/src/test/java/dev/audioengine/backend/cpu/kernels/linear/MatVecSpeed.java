package dev.audioengine.backend.cpu.kernels.linear;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.CompiledGraph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Not a test: µs per product against constant Q8_0 weights on one thread, through the engine as a decoder step runs
 * them: a chain of {@code COPIES} distinct N x K weights in one graph (N != K: each product followed by one back
 * through a K x N weight, counted as a weight too), printed per weight with the Q8_0 bytes it streamed per second.
 * Few copies fit the caches; past the last-level cache (a few hundred 416 x 416) the figure is the memory's. M rows of
 * x (default 1) time the encoder's shapes instead. Run from backend-cpu/ after {@code mvn test-compile -pl backend-cpu
 * -am}: {@code java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -cp
 * target/classes:target/test-classes:../engine-api/target/classes dev.audioengine.backend.cpu.kernels.MatVecSpeed
 * [N,K,COPIES[,M] ...]}, e.g. {@code 416,416,48 416,416,400}.
 */
public final class MatVecSpeed {
    public static void main(String[] args) {
        List<String> shapes = args.length > 0
                ? List.of(args)
                : List.of(
                        "416,416,48",
                        "3328,416,8",
                        "416,1664,8",
                        "32768,416,1",
                        "288,288,36",
                        "2304,288,6",
                        "32768,288,1");
        Random r = new Random(1);
        try (AudioEngine engine =
                AudioEngine.builder().backend("cpu").threads(1).build()) {
            for (String s : shapes) {
                int[] d =
                        Arrays.stream(s.split(",")).mapToInt(Integer::parseInt).toArray();
                int n = d[0], k = d[1], copies = d[2], m = d.length > 3 ? d[3] : 1;
                GraphBuilder g = new GraphBuilder();
                Tensor x = g.input("x", Shape.of(m, k));
                Tensor sum = null;
                for (int c = 0; c < copies; c++) {
                    float[] w = new float[n * k];
                    for (int i = 0; i < w.length; i++) w[i] = (float) r.nextGaussian();
                    Tensor y = g.matmul(x, g.constant(HostTensor.convert(DType.Q8_0, Shape.of(n, k), w)));
                    Tensor row = n == k
                            ? y
                            : g.matmul(y, g.constant(HostTensor.convert(DType.Q8_0, Shape.of(k, n), new float[n * k])));
                    if (n != k) c++; // the way back counts as a weight too
                    sum = sum == null ? row : g.add(sum, row);
                }
                float[] xv = new float[m * k];
                for (int i = 0; i < m * k; i++) xv[i] = (float) r.nextGaussian();
                try (CompiledGraph cg = engine.compile(g.build(sum));
                        HostTensor xt = HostTensor.ofFloats(Shape.of(m, k), xv);
                        HostTensor out = HostTensor.allocate(DType.F32, Shape.of(m, k))) {
                    double[] us = new double[9];
                    for (int round = 0; round < us.length; round++) {
                        int reps = m > 1 ? 5 : 200;
                        long t0 = System.nanoTime();
                        for (int i = 0; i < reps; i++) cg.runInto(Map.of("x", xt), List.of(out));
                        us[round] = (System.nanoTime() - t0) / 1e3 / reps / copies;
                    }
                    Arrays.sort(us, 4, 9);
                    double bytes = n * (k / 32) * 34.0;
                    System.out.printf(
                            "%5d x %4d Q8_0, %2d weights, %d rows: %7.1f µs a weight (%.1f GB/s, %.1f GFLOP/s)%n",
                            n, k, copies, m, us[6], bytes / us[6] / 1e3, 2.0 * m * n * k / us[6] / 1e3);
                }
            }
        }
    }
}
