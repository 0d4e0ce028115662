package dev.audioengine.backend.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.CompiledGraph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * An engine opened for concurrent runs ({@link AudioEngine.Builder#concurrentRuns}) on the CPU lets each caller's
 * graphs run at once ({@link AudioEngine#runLock} is the caller's own state), and every caller gets, bit for bit, what
 * its graphs give run one at a time: on one thread, and on a worker pool that every op splits over, where a run that
 * finds the workers busy with another's split runs its chunks on its own thread.
 */
class ConcurrentRunsTest {
    private static final int CALLERS = 3, RUNS = 40;

    @Test
    void runsTakeTurnsOnTheEngineUnlessItWasOpenedForConcurrentRuns() {
        Object own = new Object();
        try (AudioEngine engine =
                AudioEngine.builder().backend("cpu").threads(1).build()) {
            assertThat(engine.concurrentRuns()).isFalse();
            assertThat(engine.runLock(own)).isSameAs(engine);
        }
        try (AudioEngine engine = AudioEngine.builder()
                        .backend("cpu")
                        .threads(1)
                        .concurrentRuns(true)
                        .build();
                AudioEngine sibling = engine.sibling()) {
            assertThat(engine.backend().supportsConcurrentRuns()).isTrue();
            assertThat(engine.concurrentRuns()).isTrue();
            assertThat(engine.runLock(own)).isSameAs(own);
            assertThat(sibling.concurrentRuns())
                    .as("a sibling has the same settings")
                    .isTrue();
        }
    }

    @Test
    void concurrentCallersOnOneThreadGetWhatTheyGetAlone() throws Exception {
        try (AudioEngine engine = AudioEngine.builder()
                .backend("cpu")
                .threads(1)
                .concurrentRuns(true)
                .build()) {
            check(engine);
        }
    }

    @Test
    void concurrentCallersOnASharedWorkerPoolGetWhatTheyGetAlone() throws Exception {
        try (AudioEngine engine = AudioEngine.builder()
                .backend("cpu")
                .threads(2)
                .option("cpu.op-threads", "all") // every op splits, so the callers' splits meet on the workers
                .concurrentRuns(true)
                .build()) {
            check(engine);
        }
    }

    /** Each caller's own graph (odd sizes, its own weights and inputs): alone first, then all callers at once. */
    private static void check(AudioEngine engine) throws Exception {
        Random r = new Random(System.nanoTime());
        long seed = r.nextLong();
        r = new Random(seed);
        List<CompiledGraph> graphs = new ArrayList<>();
        List<HostTensor> inputs = new ArrayList<>();
        List<float[]> alone = new ArrayList<>();
        try {
            for (int c = 0; c < CALLERS; c++) {
                int rows = 37 + 2 * c, k = 53, n = 61;
                GraphBuilder g = new GraphBuilder();
                Tensor x = g.input("x", Shape.of(rows, k));
                Tensor w = g.constant(HostTensor.ofFloats(Shape.of(n, k), random(r, n * k)));
                Tensor gamma = g.constant(HostTensor.ofFloats(Shape.of(n), random(r, n)));
                Tensor beta = g.constant(HostTensor.ofFloats(Shape.of(n), random(r, n)));
                Tensor y = g.softmax(g.layerNorm(g.matmul(x, w), gamma, beta, 1e-5f));
                graphs.add(engine.compile(g.build(g.matmul(
                        y, g.constant(HostTensor.ofFloats(Shape.of(k, n), random(r, k * n)))))));
                inputs.add(HostTensor.ofFloats(Shape.of(rows, k), random(r, rows * k)));
                alone.add(run(graphs.get(c), inputs.get(c)));
            }
            ExecutorService pool = Executors.newFixedThreadPool(CALLERS);
            try {
                CountDownLatch start = new CountDownLatch(1);
                AtomicInteger inside = new AtomicInteger(), most = new AtomicInteger();
                List<Future<List<float[]>>> got = new ArrayList<>();
                for (int c = 0; c < CALLERS; c++) {
                    int caller = c;
                    got.add(pool.submit(() -> {
                        start.await();
                        List<float[]> out = new ArrayList<>();
                        for (int i = 0; i < RUNS; i++) {
                            synchronized (engine.runLock(graphs.get(caller))) {
                                most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                                out.add(run(graphs.get(caller), inputs.get(caller)));
                                inside.decrementAndGet();
                            }
                        }
                        return out;
                    }));
                }
                start.countDown();
                for (int c = 0; c < CALLERS; c++)
                    for (float[] out : got.get(c).get(120, TimeUnit.SECONDS))
                        assertThat(out).as("caller %d of seed %d", c, seed).containsExactly(alone.get(c));
            } finally {
                pool.shutdownNow();
            }
        } finally {
            for (CompiledGraph g : graphs) g.close();
            for (HostTensor t : inputs) t.close();
        }
    }

    private static float[] run(CompiledGraph g, HostTensor x) {
        try (CompiledGraph.Outputs out = g.run(Map.of("x", x))) {
            return out.get(0).toFloatArray();
        }
    }

    private static float[] random(Random r, int n) {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) a[i] = (float) r.nextGaussian();
        return a;
    }
}
