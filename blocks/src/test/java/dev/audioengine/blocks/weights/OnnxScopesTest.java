package dev.audioengine.blocks.weights;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.tensor.DType;
import dev.audioengine.weights.onnx.OnnxModel;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Module paths whose nodes torch.onnx scoped otherwise, and onnx.quantize's ConvInteger bias, on small files written
 * the way the exporters write them.
 */
class OnnxScopesTest {
    private static final float[] W = {1, 2, 3, 4, 5, 6}; // [2, 1, 3]

    @Test
    void moduleCalledFromItsParentsMethodIsFoundWithoutTheParentsName() {
        // KModel calls predictor.F0Ntrain, so predictor.F0.0.conv1 became /encoder/F0.0/conv1
        OnnxTestWriter w = conv("/encoder/F0.0/conv1/Conv", "wa", W);
        read(w, s -> {
            assertThat(s.tensor("encoder.predictor.F0.0.conv1.weight").toFloatArray())
                    .containsExactly(W);
            assertThat(s.has("encoder.predictor.F0.1.conv1.weight")).isFalse();
            assertThat(s.has("encoder.other.F0.0.conv2.weight"))
                    .as("the last module must match")
                    .isFalse();
        });
    }

    @Test
    void sequentialsRepeatedNameIsCollapsed() {
        read(
                conv("/text_encoder/cnn.0/cnn.0.0/Conv", "wa", W),
                s -> assertThat(s.tensor("text_encoder.cnn.0.0.weight").toFloatArray())
                        .containsExactly(W));
    }

    @Test
    void theExactPathWinsOverAShorterOne() {
        float[] other = {9, 9, 9, 9, 9, 9};
        OnnxTestWriter w = conv("/a/b/c/Conv", "wa", W);
        addConv(w, "/a/c/Conv", "wb", other);
        read(w, s -> assertThat(s.tensor("a.b.c.weight").toFloatArray()).containsExactly(W));
    }

    @Test
    void twoEquallyShortCandidatesAreAnErrorNotAGuess() {
        OnnxTestWriter w = conv("/a/p/conv/Conv", "wa", W);
        addConv(w, "/a/q/conv/Conv", "wb", W);
        read(
                w,
                s -> assertThatThrownBy(() -> s.tensor("a.p.q.conv.weight"))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("/a/p/conv/Conv")
                        .hasMessageContaining("/a/q/conv/Conv"));
    }

    @Test
    void lstmUnderAnotherScope() {
        int h = 1, in = 1;
        float[] wih = {1, 2, 3, 4, 5, 6, 7, 8}, r = new float[8], b = new float[16];
        OnnxTestWriter w = new OnnxTestWriter()
                .floats("W", new long[] {2, 4, in}, wih)
                .floats("R", new long[] {2, 4, h}, r)
                .floats("B", new long[] {2, 8}, b)
                .input("X", OnnxTestWriter.FLOAT, 3, 1, in)
                .node(
                        "/encoder/shared/LSTM",
                        "LSTM",
                        "",
                        List.of("X", "W", "R", "B"),
                        List.of("Y"),
                        OnnxTestWriter.intAttr("hidden_size", h))
                .output("Y", OnnxTestWriter.FLOAT, 3, 2, 1, h);
        // ONNX gates (i, o, f, c) of the reverse direction 5, 6, 7, 8 → torch (i, f, g, o) 5, 7, 8, 6
        read(
                w,
                s -> assertThat(s.tensor("encoder.predictor.shared.weight_ih_l0_reverse")
                                .toFloatArray())
                        .containsExactly(5, 7, 8, 6));
    }

    @Test
    void convIntegerBiasIsTheOneQuantizedIntoTheAccumulator() {
        // onnx.quantize: y = (ConvInteger(x, w) + Reshape(Cast(Floor(b / (x_scale · w_scale))))) · x_scale · w_scale
        OnnxTestWriter w = integerConv()
                .floats("onnx::B", new long[] {2}, 0.5f, -0.25f)
                .longs("shape", new long[] {3}, 1, -1, 1)
                .node("bias_scale", "Mul", "", List.of("x_scale", "onnx::W_scale"), List.of("bs"))
                .node("bias_div", "Div", "", List.of("onnx::B", "bs"), List.of("bd"))
                .node("bias_floor", "Floor", "", List.of("bd"), List.of("bf"))
                .node("bias_cast", "Cast", "", List.of("bf"), List.of("bc"), OnnxTestWriter.intAttr("to", 6))
                .node("bias_reshape", "Reshape", "", List.of("bc", "shape"), List.of("br"))
                .node("bias_add", "Add", "", List.of("acc", "br"), List.of("y"))
                .output("y", 6, 1, 2, 3);
        read(w, s -> {
            assertThat(s.tensor("c.bias").toFloatArray()).containsExactly(0.5f, -0.25f);
            assertThat(s.tensor("c.weight").toFloatArray()).containsExactly(-1f, 0f, 1f, 2f, 3f, 4f);
        });
    }

    @Test
    void convIntegerWithoutBiasHasNone() {
        // regression: ConvInteger's input 2 is the activation's zero point, which the Conv rule took for a bias
        read(
                integerConv().output("acc", 6, 1, 2, 3),
                s -> assertThat(s.has("c.bias")).isFalse());
    }

    private static OnnxTestWriter integerConv() {
        return new OnnxTestWriter()
                .initializer(
                        "onnx::W_quantized", OnnxTestWriter.UINT8, new long[] {2, 1, 3}, new byte[] {1, 2, 3, 4, 5, 6})
                .floats("onnx::W_scale", new long[] {}, 1f)
                .initializer("onnx::W_zero_point", OnnxTestWriter.UINT8, new long[] {}, new byte[] {2})
                .input("xq", OnnxTestWriter.UINT8, 1, 1, 5)
                .input("x_zp", OnnxTestWriter.UINT8)
                .input("x_scale", OnnxTestWriter.FLOAT)
                .node(
                        "/c/Conv_quant",
                        "ConvInteger",
                        "",
                        List.of("xq", "onnx::W_quantized", "x_zp", "onnx::W_zero_point"),
                        List.of("acc"));
    }

    private static OnnxTestWriter conv(String node, String weight, float[] w) {
        return addConv(new OnnxTestWriter().input("x", OnnxTestWriter.FLOAT, 1, 1, 5), node, weight, w);
    }

    private static OnnxTestWriter addConv(OnnxTestWriter t, String node, String weight, float[] w) {
        return t.floats(weight, new long[] {2, 1, 3}, w)
                .node(node, "Conv", "", List.of("x", weight), List.of(node + "_out"))
                .output(node + "_out", OnnxTestWriter.FLOAT, 1, 2, 3);
    }

    private static void read(OnnxTestWriter w, Consumer<WeightScope> check) {
        try (OnnxModel m = OnnxModel.parse(w.bytes(), "test.onnx");
                WeightStore store = WeightStore.of(m, "test.onnx", DType.F32)) {
            check.accept(store.scope());
        }
    }
}
