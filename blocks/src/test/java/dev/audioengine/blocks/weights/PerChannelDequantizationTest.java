package dev.audioengine.blocks.weights;

import static dev.audioengine.blocks.weights.MoonshineOnnxWeightsTest.assertSameFloats;
import static dev.audioengine.blocks.weights.MoonshineOnnxWeightsTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.testkit.RandomTensors;
import dev.audioengine.api.testkit.Seeds;
import dev.audioengine.weights.onnx.OnnxModel;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Per-channel 8-bit weights as onnx.quantize writes them with per_channel=True, for the three
 * integer ops: a file holding the real uint8 q_proj weight of Moonshine's encoder (and random int8
 * weights) with fresh random per-channel scales and zero points, read through WeightScope, against
 * ONNX Runtime's DequantizeLinear over the same bytes along the axis the op's rule names.
 */
class PerChannelDequantizationTest {
    private final long seed = Seeds.fresh();
    private final RandomTensors random = new RandomTensors(seed);

    @Test
    void matMulIntegerPerColumn(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        byte[] q;
        try (OnnxModel enc = OnnxModel.read(NpmFixture.moonshineTinyEncoder())) {
            q = enc.graph().initializers().stream()
                    .filter(t -> t.name().equals("onnx::MatMul_1538_quantized"))
                    .findFirst()
                    .orElseThrow()
                    .bytes()
                    .toArray(ValueLayout.JAVA_BYTE); // layers.0.mlp.fc1: [288, 1152] uint8
        }
        long k = 288, n = 1152;
        float[] scale = random.uniform((int) n, 1e-3f, 2e-2f);
        byte[] zp = bytes(random.ints((int) n, 0, 256));
        OnnxTestWriter engine = new OnnxTestWriter()
                .initializer("w_quantized", OnnxTestWriter.UINT8, new long[] {k, n}, q)
                .floats("w_scale", new long[] {n}, scale)
                .initializer("w_zero_point", OnnxTestWriter.UINT8, new long[] {n}, zp)
                .input("x", OnnxTestWriter.UINT8, 3, k)
                .input("x_zero_point", OnnxTestWriter.UINT8)
                .node(
                        "/fc/MatMul_quant",
                        "MatMulInteger",
                        "",
                        List.of("x", "w_quantized", "x_zero_point", "w_zero_point"),
                        List.of("y"))
                .output("y", 6, 3, n);
        float[] ort =
                run(dequantizeLinear("w_quantized", OnnxTestWriter.UINT8, new long[] {k, n}, q, scale, zp, 1), "w");
        float[] ours = read(dir, engine, "fc.weight", DType.F32); // [n, k]
        float[] back = new float[ours.length];
        for (int i = 0; i < k; i++) for (int j = 0; j < n; j++) back[(int) (i * n + j)] = ours[(int) (j * k + i)];
        assertSameFloats("MatMulInteger per column, " + Seeds.describe(seed), back, ort);
    }

    @Test
    void convIntegerPerOutputChannel(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        long cout = 7, cin = 5, kw = 3;
        byte[] q = bytes(random.ints((int) (cout * cin * kw), -128, 128));
        float[] scale = random.uniform((int) cout, 1e-3f, 2e-2f);
        byte[] zp = bytes(random.ints((int) cout, -128, 128));
        OnnxTestWriter engine = new OnnxTestWriter()
                .initializer("conv.weight_quantized", OnnxTestWriter.INT8, new long[] {cout, cin, kw}, q)
                .floats("conv.weight_scale", new long[] {cout}, scale)
                .initializer("conv.weight_zero_point", OnnxTestWriter.INT8, new long[] {cout}, zp)
                .input("x", OnnxTestWriter.UINT8, 1, cin, 11)
                .node(
                        "/conv/Conv_quant",
                        "ConvInteger",
                        "",
                        List.of("x", "conv.weight_quantized", "", "conv.weight_zero_point"),
                        List.of("y"))
                .output("y", 6, 1, cout, 9);
        float[] ort = run(dequantizeLinear("q", OnnxTestWriter.INT8, new long[] {cout, cin, kw}, q, scale, zp, 0), "w");
        assertSameFloats(
                "ConvInteger by stored name, " + Seeds.describe(seed),
                read(dir, engine, "conv.weight", DType.F32),
                ort);
    }

    @Test
    void dynamicQuantizeLstmPerGateColumn(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        long in = 6, hidden = 4, cols = 4 * hidden;
        byte[] w = bytes(random.ints((int) (in * cols), -128, 128)),
                r = bytes(random.ints((int) (hidden * cols), -128, 128));
        float[] ws = random.uniform((int) cols, 1e-3f, 2e-2f), rs = random.uniform((int) cols, 1e-3f, 2e-2f);
        byte[] wz = bytes(random.ints((int) cols, -128, 128)), rz = bytes(random.ints((int) cols, -128, 128));
        OnnxTestWriter engine = new OnnxTestWriter()
                .opset("", 17)
                .opset("com.microsoft", 1)
                .initializer("W_quantized", OnnxTestWriter.INT8, new long[] {1, in, cols}, w)
                .initializer("R_quantized", OnnxTestWriter.INT8, new long[] {1, hidden, cols}, r)
                .floats("W_scale", new long[] {1, cols}, ws)
                .initializer("W_zero_point", OnnxTestWriter.INT8, new long[] {1, cols}, wz)
                .floats("R_scale", new long[] {1, cols}, rs)
                .initializer("R_zero_point", OnnxTestWriter.INT8, new long[] {1, cols}, rz)
                .input("x", 1, 5, 1, in)
                .node(
                        "/lstm/LSTM_quant",
                        "DynamicQuantizeLSTM",
                        "com.microsoft",
                        List.of(
                                "x",
                                "W_quantized",
                                "R_quantized",
                                "",
                                "",
                                "",
                                "",
                                "",
                                "W_scale",
                                "W_zero_point",
                                "R_scale",
                                "R_zero_point"),
                        List.of("y"),
                        OnnxTestWriter.intAttr("hidden_size", hidden))
                .output("y", 1, 5, 1, 1, hidden);
        float[] ortW = run(dequantizeLinear("q", OnnxTestWriter.INT8, new long[] {1, in, cols}, w, ws, wz, 2), "w");
        float[] ortR = run(dequantizeLinear("q", OnnxTestWriter.INT8, new long[] {1, hidden, cols}, r, rs, rz, 2), "w");
        assertSameFloats("LSTM W, " + Seeds.describe(seed), read(dir, engine, "W", DType.F32), ortW);
        assertSameFloats("LSTM R, " + Seeds.describe(seed), read(dir, engine, "R", DType.F32), ortR);
    }

    /** A model whose only node is DequantizeLinear(q, scale, zp, axis), for ONNX Runtime. */
    private static byte[] dequantizeLinear(
            String name, int type, long[] dims, byte[] q, float[] scale, byte[] zp, int axis) {
        return new OnnxTestWriter()
                .initializer(name, type, dims, q)
                .floats("s", new long[] {scale.length}, scale)
                .initializer("z", type, new long[] {zp.length}, zp)
                .node(
                        "dq",
                        "DequantizeLinear",
                        "",
                        List.of(name, "s", "z"),
                        List.of("w"),
                        OnnxTestWriter.intAttr("axis", axis))
                .output("w", OnnxTestWriter.FLOAT, dims)
                .bytes();
    }

    private static float[] read(Path dir, OnnxTestWriter model, String name, DType type) throws Exception {
        Path file = dir.resolve("model.onnx");
        Files.write(file, model.bytes());
        try (WeightStore store = WeightStore.open(file, type)) {
            float[] v = store.scope().tensor(name).toFloatArray();
            assertThat(store.scope().has(name)).isTrue();
            return v;
        }
    }

    private static byte[] bytes(int[] v) {
        byte[] b = new byte[v.length];
        for (int i = 0; i < v.length; i++) b[i] = (byte) v[i];
        return b;
    }
}
