package dev.audioengine.backend.cpu.kernels.elementwise;

import dev.audioengine.api.graph.Op.UnaryKind;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;

/**
 * Not a test: ns per value of the CPU's unary activations over 64 Ki floats (L2-resident), each kind's span called
 * through one shared call site as {@link ElementwiseDriver} calls it, after every kind has passed through that site
 * once (so it is megamorphic, as in a process running a model). With KINDS naming one kind, only that one runs: the
 * figure a kind has alone. Prints the median of the last rounds. After {@code mvn test-compile -pl backend-cpu}, run
 * from backend-cpu/ {@code java --add-modules jdk.incubator.vector -cp
 * target/classes:target/test-classes:../engine-api/target/classes dev.audioengine.backend.cpu.kernels.UnarySpeed
 * [KINDS [ROUNDS]]}, e.g. {@code RELU,SIGMOID,GELU_ERF,TANH,GELU_TANH,EXP 8} (the default).
 */
public final class UnarySpeed {
    private static final int N = 1 << 16, CALLS = 300;

    public static void main(String[] args) {
        List<UnaryKind> kinds = Arrays.stream(
                        (args.length > 0 ? args[0] : "RELU,SIGMOID,GELU_ERF,TANH,GELU_TANH,EXP").split(","))
                .map(UnaryKind::valueOf)
                .toList();
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        MemorySegment src = Arena.global().allocate(4L * N, 64),
                dst = Arena.global().allocate(4L * N, 64);
        for (int i = 0; i < N; i++) src.setAtIndex(ValueLayout.JAVA_FLOAT, i, (float) Math.sin(i) * 3);
        if (kinds.size() > 1) for (UnaryKind k : UnaryKind.values()) drive(UnaryMath.span(k, 1f), src, dst, 64, 3);
        double[][] ns = new double[kinds.size()][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < kinds.size(); k++) {
                ElementwiseDriver.Span span = UnaryMath.span(kinds.get(k), 1f);
                long t0 = System.nanoTime();
                drive(span, src, dst, N, CALLS);
                ns[k][r] = (System.nanoTime() - t0) / ((double) CALLS * N);
            }
        }
        for (int k = 0; k < kinds.size(); k++) {
            double[] late = Arrays.copyOfRange(ns[k], rounds / 2, rounds);
            Arrays.sort(late);
            System.out.printf(
                    "%-10s %.3f ns a value (median of the last %d rounds)%n",
                    kinds.get(k), late[late.length / 2], late.length);
        }
    }

    /** The one call site every kind goes through. */
    private static void drive(ElementwiseDriver.Span span, MemorySegment src, MemorySegment dst, int n, int calls) {
        for (int c = 0; c < calls; c++) span.apply(src, 0, dst, 0, n);
    }
}
