package dev.audioengine.backend.cpu.kernels.elementwise;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.graph.Op.UnaryKind;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The transcendental kinds' vector loops give exactly the scalar form's bits, value by value: a span takes the scalar
 * form for its first calls and the vector loop afterwards (UnaryMath.SCALAR_FIRST_CALLS), so any difference would
 * make a result depend on how many calls came before it. Inputs of every scale, special values included; run many
 * times so that the vector loop is also checked once C2 has compiled it, into other memory and in place.
 */
class UnaryMathTest {
    /** LEAKY_RELU's slope (1 would make it the identity). */
    private static final float ALPHA = 0.0731f;

    @ParameterizedTest
    @EnumSource(UnaryKind.class)
    void vectorLoopGivesTheScalarFormsBits(UnaryKind kind) {
        long seed = System.nanoTime();
        SplittableRandom r = new SplittableRandom(seed);
        int n = 16 * 64;
        float[] specials = {
            0f,
            -0f,
            Float.NaN,
            Float.POSITIVE_INFINITY,
            Float.NEGATIVE_INFINITY,
            1e-30f,
            0.6931472f,
            -0.6931472f,
            Math.nextDown(-0.6931472f),
            -1e-30f,
            88.5f,
            Float.MIN_NORMAL,
            Float.MAX_VALUE,
            1f,
            -88.5f,
            -104.5f,
            89.5f,
            70000f,
            -70000f,
            1e7f,
            Float.MIN_VALUE,
            -Float.MAX_VALUE
        };
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment src = arena.allocate(4L * n, 64),
                    dst = arena.allocate(4L * n, 64),
                    copy = arena.allocate(4L * n, 64);
            for (int round = 0; round < 400; round++) {
                for (int i = 0; i < n; i++) {
                    float x = (float) (r.nextDouble(-1, 1) * Math.pow(10, r.nextInt(-8, 3)));
                    if (r.nextInt(40) == 0) x = specials[r.nextInt(specials.length)];
                    src.setAtIndex(ValueLayout.JAVA_FLOAT, i, x);
                }
                // every other round in place (src and dst one memory), as a graph may run a unary op
                boolean inPlace = round % 2 == 1;
                MemorySegment out = inPlace ? copy.copyFrom(src) : dst;
                int done = UnaryMath.vectorPart(kind, ALPHA, inPlace ? out : src, 0, out, 0, n);
                assertThat(done).isEqualTo(n);
                for (int i = 0; i < n; i++) {
                    float x = src.getAtIndex(ValueLayout.JAVA_FLOAT, i);
                    float want = UnaryMath.apply(kind, ALPHA, x), got = out.getAtIndex(ValueLayout.JAVA_FLOAT, i);
                    assertThat(Float.floatToIntBits(got))
                            .as(
                                    "%s(%s) = %s by the vector loop (in place: %s), %s by the scalar form (round %d, seed %d)",
                                    kind, x, got, inPlace, want, round, seed)
                            .isEqualTo(Float.floatToIntBits(want));
                }
            }
        }
    }
}
