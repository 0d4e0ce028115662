package dev.audioengine.backend.cpu.threads;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.Shape;
import org.junit.jupiter.api.Test;

/**
 * The thread-choice rule on the shapes it is for: every op of a streaming Silero VAD chunk (the
 * graph that ran many times slower on all cores than on one) stays on one thread of a 16-thread
 * pool, large products and convolutions take every thread, and in between an op gets a thread
 * per {@link OpThreads#NANOS_PER_THREAD} of estimated work.
 */
class OpThreadsTest {
    private static final int POOL = 16;

    @Test
    void streamingVadSizedOpsStayOnOneThread() {
        GraphBuilder g = new GraphBuilder();
        Tensor audio = g.input("audio", Shape.of(1, 576));
        Tensor window = g.input("window", Shape.of(256));
        Tensor spec = g.stft(audio, window, 256, 128, false);
        Tensor feats = g.input("feats", Shape.of(1, 129, 4));
        Tensor conv = g.conv1d(feats, g.input("w1", Shape.of(128, 129, 3)), g.input("b1", Shape.of(128)), 1, 1, 1, 1);
        Tensor act = g.relu(conv);
        Tensor lstm = g.lstm(
                g.input("x", Shape.of(1, 1, 128)),
                g.input("w_ih", Shape.of(512, 128)),
                g.input("w_hh", Shape.of(512, 128)),
                g.input("b_ih", Shape.of(512)),
                g.input("b_hh", Shape.of(512)),
                g.input("h0", Shape.of(1, 128)),
                g.input("c0", Shape.of(1, 128)));
        Tensor head = g.matmul(g.input("h", Shape.of(1, 128)), g.input("w2", Shape.of(1, 128)));
        for (Tensor op : new Tensor[] {spec, conv, act, lstm, head}) {
            assertThat(OpThreads.choose(op, POOL))
                    .as(op.op().opName() + " " + op.shape())
                    .isEqualTo(1);
        }
    }

    @Test
    void largeProductsAndConvolutionsTakeEveryThread() {
        GraphBuilder g = new GraphBuilder();
        Tensor gemm = g.matmul(g.input("x", Shape.of(1024, 1024)), g.input("w", Shape.of(1024, 1024)));
        Tensor conv =
                g.conv1d(g.input("a", Shape.of(1, 256, 16000)), g.input("k", Shape.of(256, 256, 3)), null, 1, 1, 1, 1);
        Tensor sweep = g.add(g.input("p", Shape.of(4096, 4096)), g.input("q", Shape.of(4096, 4096)));
        for (Tensor op : new Tensor[] {gemm, conv, sweep}) {
            assertThat(OpThreads.choose(op, POOL))
                    .as(op.op().opName() + " " + op.shape())
                    .isEqualTo(POOL);
            assertThat(OpThreads.choose(op, 2)).as("capped by the pool").isEqualTo(2);
        }
    }

    @Test
    void inBetweenAThreadPerShareOfWork() {
        GraphBuilder g = new GraphBuilder();
        // 2·m·n·k FLOPs at FLOPS_PER_NANO: n chosen so the estimate is just over three shares
        long k = 1024, m = 8;
        long n = (long) Math.ceil(3.2 * OpThreads.NANOS_PER_THREAD * OpThreads.FLOPS_PER_NANO / (2.0 * m * k));
        Tensor product = g.matmul(g.input("x", Shape.of(m, k)), g.input("w", Shape.of(n, k)));
        assertThat(OpThreads.choose(product, POOL)).isEqualTo(3);
        // bytes read and written at BYTES_PER_NANO: an add of 3 x 4 bytes per element, just under two shares
        long elements = (long) (1.9 * OpThreads.NANOS_PER_THREAD * OpThreads.BYTES_PER_NANO / 12);
        Tensor add = g.add(g.input("a", Shape.of(elements)), g.input("b", Shape.of(elements)));
        assertThat(OpThreads.choose(add, POOL)).isEqualTo(1);
        assertThat(OpThreads.choose(g.scale(g.input("e", Shape.of(0)), 2f), POOL))
                .as("no work at all")
                .isEqualTo(1);
    }
}
