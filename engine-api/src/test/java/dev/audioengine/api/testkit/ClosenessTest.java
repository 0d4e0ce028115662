package dev.audioengine.api.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.audioengine.api.tensor.Shape;
import org.junit.jupiter.api.Test;

class ClosenessTest {
    @Test
    void nmseAndWorstElement() {
        float[] a = {1, 2, 3.5f};
        double[] b = {1, 2, 3};
        assertThat(Closeness.nmse(a, b)).isCloseTo(0.25 / 14, within(1e-15));
        assertThat(Closeness.worstIndex(a, b)).isEqualTo(2);
        assertThat(Closeness.maxAbsError(a, b)).isEqualTo(0.5);
        assertThatThrownBy(() -> Closeness.assertNmse("add", Shape.of(3), 42, a, b, 1e-3))
                .hasMessageContaining("add [3]")
                .hasMessageContaining("element 2")
                .hasMessageContaining("-Daudioengine.seed=42");
        assertThatCode(() -> Closeness.assertNmse("add", Shape.of(3), 42, a, b, 0.02))
                .doesNotThrowAnyException();
    }

    @Test
    void nonFiniteValuesMustAgreeByPosition() {
        double[] expected = {Double.NaN, Double.NEGATIVE_INFINITY, 1};
        assertThatCode(() -> Closeness.assertMaxAbs(
                        "log", Shape.of(3), 1, new float[] {Float.NaN, Float.NEGATIVE_INFINITY, 1}, expected, 0))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> Closeness.assertMaxAbs(
                        "log", Shape.of(3), 1, new float[] {0, Float.NEGATIVE_INFINITY, 1}, expected, 1))
                .hasMessageContaining("element 0");
        assertThatThrownBy(() -> Closeness.assertMaxAbs(
                        "log",
                        Shape.of(3),
                        1,
                        new float[] {Float.NaN, Float.NEGATIVE_INFINITY, Float.NaN},
                        expected,
                        1))
                .hasMessageContaining("element 2");
    }

    @Test
    void pinnedSeedReplays() {
        String old = System.getProperty(Seeds.PROPERTY);
        try {
            System.setProperty(Seeds.PROPERTY, "1234");
            assertThat(Seeds.fresh()).isEqualTo(1234);
            assertThat(new RandomTensors(1234).uniform(4, 0, 1))
                    .containsExactly(new RandomTensors(1234).uniform(4, 0, 1));
        } finally {
            if (old == null) System.clearProperty(Seeds.PROPERTY);
            else System.setProperty(Seeds.PROPERTY, old);
        }
    }
}
