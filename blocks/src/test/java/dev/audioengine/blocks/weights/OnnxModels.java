package dev.audioengine.blocks.weights;

import java.util.List;

/** Small ONNX models other test packages build (OnnxTestWriter stays package-private). */
public final class OnnxModels {
    private OnnxModels() {}

    /** One bidirectional LSTM node named {@code node}: X [T, B, I] → Y [T, 2, B, H], W [2, 4H, I], R [2, 4H, H], B [2, 8H]. */
    public static byte[] bidirectionalLstm(
            String node, int t, int b, int in, int h, float[] w, float[] r, float[] bias) {
        return new OnnxTestWriter()
                .floats("W", new long[] {2, 4L * h, in}, w)
                .floats("R", new long[] {2, 4L * h, h}, r)
                .floats("B", new long[] {2, 8L * h}, bias)
                .input("X", OnnxTestWriter.FLOAT, t, b, in)
                .node(
                        node,
                        "LSTM",
                        "",
                        List.of("X", "W", "R", "B"),
                        List.of("Y"),
                        OnnxTestWriter.intAttr("hidden_size", h),
                        stringAttr("direction", "bidirectional"))
                .output("Y", OnnxTestWriter.FLOAT, t, 2, b, h)
                .bytes();
    }

    private static byte[] stringAttr(String name, String v) {
        return new OnnxTestWriter.Msg().str(1, name).str(4, v).varint(20, 3).bytes();
    }
}
