package dev.audioengine.api.graph;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.Shape;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Every op belongs to the family its section of Op.java names; the table is written out so a move is a visible edit. */
class OpFamilyTest {

    private static final List<Op> ONE_OF_EACH = List.of(
            new Op.Input("x"),
            new Op.Constant(null),
            new Op.State("s"),
            new Op.Binary(Op.BinaryKind.ADD),
            new Op.Unary(Op.UnaryKind.TANH, 0f),
            new Op.Scale(1f, 0f),
            new Op.Snake(),
            new Op.MatMul(),
            new Op.Conv1d(1, 0, 1, 1),
            new Op.ConvTranspose1d(1, 0, 0, 1, 1),
            new Op.Pad(Op.PadMode.ZERO, new long[] {0}, new long[] {0}, 0f),
            new Op.Concat(0),
            new Op.Slice(0, 0, 1, 1),
            new Op.Permute(new int[] {0}),
            new Op.Reshape(Shape.of(1)),
            new Op.Contiguous(),
            new Op.WriteSlice(0),
            new Op.Cast(DType.F16),
            new Op.LayerNorm(1e-5f),
            new Op.RmsNorm(1e-5f),
            new Op.GroupNorm(1, 1e-5f),
            new Op.Softmax(1f),
            new Op.Reduce(Op.ReduceKind.SUM, 0, false),
            new Op.Argmax(0),
            new Op.GetRows(),
            new Op.Rope(2, 10000f, Op.RopeMode.NORMAL),
            new Op.Attention(1f, false),
            new Op.KeyMask(false),
            new Op.Lstm(4),
            new Op.Stft(16, 4, true),
            new Op.Istft(16, 4, true, 32),
            new Op.Magnitude());

    @Test
    void familiesMatchTheTable() {
        Map<Op.Family, TreeSet<String>> byFamily = ONE_OF_EACH.stream()
                .collect(Collectors.groupingBy(
                        Op::family,
                        () -> new EnumMap<>(Op.Family.class),
                        Collectors.mapping(Op::opName, Collectors.toCollection(TreeSet::new))));
        assertThat(byFamily)
                .containsExactlyEntriesOf(new EnumMap<>(Map.of(
                        Op.Family.LEAF, new TreeSet<>(List.of("constant", "input", "state")),
                        Op.Family.ELEMENTWISE, new TreeSet<>(List.of("add", "tanh", "scale", "snake")),
                        Op.Family.LINEAR, new TreeSet<>(List.of("matmul", "conv1d", "conv_transpose1d")),
                        Op.Family.LAYOUT,
                                new TreeSet<>(List.of(
                                        "pad",
                                        "concat",
                                        "slice",
                                        "permute",
                                        "reshape",
                                        "contiguous",
                                        "write_slice",
                                        "cast")),
                        Op.Family.REDUCTION,
                                new TreeSet<>(
                                        List.of("layer_norm", "rms_norm", "group_norm", "softmax", "sum", "argmax")),
                        Op.Family.SEQUENCE, new TreeSet<>(List.of("get_rows", "rope", "attention", "key_mask", "lstm")),
                        Op.Family.SPECTRAL, new TreeSet<>(List.of("stft", "istft", "magnitude")))));
    }

    @Test
    void everyOpRecordIsCovered() {
        assertThat(ONE_OF_EACH)
                .extracting(op -> op.getClass().getSimpleName())
                .containsExactlyInAnyOrderElementsOf(Arrays.stream(Op.class.getPermittedSubclasses())
                        .map(Class::getSimpleName)
                        .toList());
    }

    @Test
    void idIsTheLowerCaseName() {
        assertThat(Op.Family.REDUCTION.id()).isEqualTo("reduction");
    }
}
