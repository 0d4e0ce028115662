package dev.audioengine.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The catalogue covers every op, kind and dtype the issue lists, with enough cases. */
class CaseCatalogueTest {
    @Test
    void hasAtLeast300Cases() {
        assertThat(CaseCatalogue.all()).hasSizeGreaterThanOrEqualTo(300);
    }

    @Test
    void coversEveryComputeOpAndKind() {
        Set<String> ops = CaseCatalogue.all().stream().map(ConformanceCase::op).collect(Collectors.toSet());
        for (Op.BinaryKind k : Op.BinaryKind.values()) assertThat(ops).contains(new Op.Binary(k).opName());
        for (Op.UnaryKind k : Op.UnaryKind.values()) assertThat(ops).contains(new Op.Unary(k, 1).opName());
        for (Op.ReduceKind k : Op.ReduceKind.values()) assertThat(ops).contains(new Op.Reduce(k, 0, false).opName());
        assertThat(ops)
                .contains(
                        "scale",
                        "snake",
                        "matmul",
                        "conv1d",
                        "conv_transpose1d",
                        "pad",
                        "concat",
                        "contiguous",
                        "cast",
                        "layer_norm",
                        "rms_norm",
                        "group_norm",
                        "softmax",
                        "argmax",
                        "get_rows",
                        "rope",
                        "attention",
                        "lstm",
                        "stft",
                        "istft",
                        "magnitude");
        // every op record of Op.java except leaves and views has cases
        long computeRecords = Arrays.stream(Op.class.getPermittedSubclasses())
                .filter(c -> c != Op.Input.class
                        && c != Op.Constant.class
                        && c != Op.State.class
                        && c != Op.Slice.class
                        && c != Op.Permute.class
                        && c != Op.Reshape.class)
                .count();
        Set<Class<?>> covered = CaseCatalogue.all().stream()
                .map(c -> (Class<?>) c.node().op().getClass())
                .collect(Collectors.toSet());
        assertThat(covered).hasSize((int) computeRecords);
    }

    @Test
    void coversTheDtypesEachOpTakes() {
        assertThat(dtypes("matmul"))
                .contains(
                        "f32", "f16", "bf16", "q8_0", "q4_0", "q5_0", "q5_1", "q4_1", "q6_k", "q4_k", "q5_k", "q3_k",
                        "q2_k");
        assertThat(dtypes("get_rows"))
                .contains(
                        "f32", "f16", "bf16", "q8_0", "q4_0", "q5_0", "q5_1", "q4_1", "q6_k", "q4_k", "q5_k", "q3_k",
                        "q2_k");
        assertThat(dtypes("cast"))
                .contains(
                        "f16", "bf16", "q8_0", "q4_0", "q5_0", "q5_1", "q4_1", "q6_k", "q4_k", "q5_k", "q3_k", "q2_k",
                        "i32");
        assertThat(dtypes("attention")).contains("f32", "f16", "bf16");
    }

    /**
     * Each k-quant has 12 matmul cases (K of 256 to 1280, several super-blocks a row), 4 get_rows and 7 cast cases, all
     * on rows of whole super-blocks, and they are the evidence of its weight capability.
     */
    @Test
    void kQuantsHaveTheirCasesAndEvidence() {
        for (String t : new String[] {"q6_k", "q4_k", "q5_k", "q3_k", "q2_k"}) {
            assertThat(CaseCatalogue.select("matmul", t)).as(t).hasSize(12);
            assertThat(CaseCatalogue.select("get_rows", t)).as(t).hasSize(4);
            assertThat(CaseCatalogue.select("cast", t)).as(t).hasSize(7);
            dev.audioengine.api.capability.Capability c = dev.audioengine.api.capability.Capability.weights(
                            DType.parse(t))
                    .orElseThrow();
            assertThat(CapabilityEvidence.cases(c)).as(t).hasSize(23);
        }
        assertThat(CaseCatalogue.select("matmul", "q6_k").stream().map(ConformanceCase::shape))
                .anyMatch(s -> s.contains(",256]"))
                .anyMatch(s -> s.contains(",512]"))
                .anyMatch(s -> s.contains(",768]"));
    }

    @Test
    void viewsAppearAsKernelInputs() {
        long strided = CaseCatalogue.all().stream()
                .filter(c -> c.node().inputs().stream().anyMatch(t -> !t.isContiguous()))
                .count();
        assertThat(strided).as("cases with a non-contiguous input").isGreaterThanOrEqualTo(40);
    }

    @Test
    void inputsAreReproducibleFromTheSeedAndDifferBetweenSeeds() {
        ConformanceCase c = CaseCatalogue.select("matmul", "q4_0").getFirst();
        Map<String, HostTensor> a = c.drawInputs(42), b = c.drawInputs(42), other = c.drawInputs(43);
        try {
            assertThat(a.get("w").dtype()).isEqualTo(DType.Q4_0);
            assertThat(a.get("x").toFloatArray()).containsExactly(b.get("x").toFloatArray());
            assertThat(a.get("x").toFloatArray()).isNotEqualTo(other.get("x").toFloatArray());
        } finally {
            a.values().forEach(HostTensor::close);
            b.values().forEach(HostTensor::close);
            other.values().forEach(HostTensor::close);
        }
    }

    @Test
    void unknownFilterNamesFailWithTheValidOnes() {
        assertThatThrownBy(() -> CaseCatalogue.select("matmull", null)).hasMessageContaining("matmul");
        assertThatThrownBy(() -> CaseCatalogue.select(null, "iq4_nl")).hasMessageContaining("q8_0");
    }

    @Test
    void comparisonCatchesErrorsAndSpecialMismatches() {
        assertThat(Comparison.of(new double[] {1, 2}, new double[] {1, 2}).nmse())
                .isZero();
        assertThat(Comparison.of(new double[] {1, 2.1}, new double[] {1, 2}).nmse())
                .isCloseTo(0.01 / 5, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(Comparison.of(new double[] {Double.NaN, 1}, new double[] {0, 1})
                        .mismatch())
                .contains("element 0");
        assertThat(Comparison.of(new double[] {Double.POSITIVE_INFINITY}, new double[] {Double.NEGATIVE_INFINITY})
                        .mismatch())
                .isNotNull();
        assertThat(Comparison.of(
                                new double[] {Double.NaN, Double.NEGATIVE_INFINITY},
                                new double[] {Double.NaN, Double.NEGATIVE_INFINITY})
                        .mismatch())
                .isNull();
        assertThat(Comparison.of(new double[] {0.5}, new double[] {0}).nmse())
                .as("all-zero reference")
                .isEqualTo(0.25);
        assertThat(Comparison.of(new double[] {-0.0}, new double[] {-3e-38}).nmse())
                .as("a tail flushed to zero")
                .isZero();
        assertThat(Comparison.of(new double[] {-0.0}, new double[] {-3e-36}).nmse())
                .as("a value above the floor lost")
                .isGreaterThan(0.3);
    }

    private static Set<String> dtypes(String op) {
        return CaseCatalogue.select(op, null).stream()
                .map(ConformanceCase::dtype)
                .collect(Collectors.toSet());
    }
}
