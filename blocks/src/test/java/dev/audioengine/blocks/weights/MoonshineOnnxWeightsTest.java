package dev.audioengine.blocks.weights;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.weights.onnx.OnnxModel;
import java.lang.foreign.ValueLayout;
import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * WeightScope on the real 8-bit Moonshine tiny ONNX files (moonshine-js 0.1.29): every weight the
 * family needs resolves by its PyTorch name to the right shape, and the dequantized values equal
 * what ONNX Runtime computes from the same stored bytes. For the ORT side each check writes a tiny
 * ONNX model holding the real quantized initializer and its real scale and zero point, with the
 * dequantizing nodes the file itself uses (DequantizeLinear; Cast → Mul → Add), and runs it.
 */
class MoonshineOnnxWeightsTest {
    private static Path encoderFile, decoderFile;
    private static OnnxModel encoderModel, decoderModel;
    private static WeightStore encoder, decoder;
    private static final OrtEnvironment ORT = OrtEnvironment.getEnvironment();

    @BeforeAll
    static void open() throws Exception {
        encoderFile = NpmFixture.moonshineTinyEncoder();
        decoderFile = NpmFixture.moonshineTinyDecoder();
        encoderModel = OnnxModel.read(encoderFile);
        decoderModel = OnnxModel.read(decoderFile);
        encoder = WeightStore.of(encoderModel, encoderFile.toString(), DType.F32);
        decoder = WeightStore.of(decoderModel, decoderFile.toString(), DType.F32);
    }

    @AfterAll
    static void close() {
        encoder.close();
        decoder.close();
        encoderModel.close();
        decoderModel.close();
    }

    @Test
    void encoderNamesResolveToTheirShapes() {
        WeightScope s = encoder.scope();
        Map<String, long[]> expect = new java.util.LinkedHashMap<>();
        expect.put("conv1.weight", new long[] {288, 1, 127});
        expect.put("groupnorm.weight", new long[] {288});
        expect.put("groupnorm.bias", new long[] {288});
        expect.put("conv2.weight", new long[] {576, 288, 7});
        expect.put("conv2.bias", new long[] {576});
        expect.put("conv3.weight", new long[] {288, 576, 3});
        expect.put("conv3.bias", new long[] {288});
        expect.put("layer_norm.weight", new long[] {288});
        for (int l = 0; l < 6; l++) {
            String p = "layers." + l + ".";
            expect.put(p + "input_layernorm.weight", new long[] {288});
            for (String m : List.of("q_proj", "k_proj", "v_proj", "dense"))
                expect.put(p + "self_attn." + m + ".weight", new long[] {288, 288});
            expect.put(p + "post_attention_layernorm.weight", new long[] {288});
            expect.put(p + "mlp.fc1.weight", new long[] {1152, 288});
            expect.put(p + "mlp.fc1.bias", new long[] {1152});
            expect.put(p + "mlp.fc2.weight", new long[] {288, 1152});
            expect.put(p + "mlp.fc2.bias", new long[] {288});
        }
        expect.forEach(
                (name, shape) -> assertThat(s.tensor(name).shape()).as(name).isEqualTo(Shape.of(shape)));
        assertThat(s.has("layers.0.self_attn.q_proj.bias"))
                .as("Moonshine's attention projections have no bias")
                .isFalse();
        // regression: the LayerNorm export's /layers.0/input_layernorm/Add (variance + eps) was taken for a bias
        for (String norm : List.of("layers.0.input_layernorm", "layers.5.post_attention_layernorm", "layer_norm")) {
            assertThat(s.has(norm + ".bias")).as(norm + " has no bias").isFalse();
        }
        assertThat(s.child("layers", 2).child("mlp").tensor("fc1.weight"))
                .isSameAs(s.tensor("layers.2.mlp.fc1.weight"));
    }

    @Test
    void decoderNamesResolveToTheirShapes() {
        WeightScope d = decoder.scope().child("model.decoder");
        assertThat(d.tensor("embed_tokens.weight").shape()).isEqualTo(Shape.of(32768, 288));
        assertThat(d.tensor("norm.weight").shape()).isEqualTo(Shape.of(288));
        for (int l = 0; l < 6; l++) {
            WeightScope layer = d.child("layers", l);
            for (String norm : List.of("input_layernorm", "post_attention_layernorm", "final_layernorm")) {
                assertThat(layer.tensor(norm + ".weight").shape()).isEqualTo(Shape.of(288));
            }
            for (String att : List.of("self_attn", "encoder_attn")) {
                for (String m : List.of("q_proj", "k_proj", "v_proj", "dense")) {
                    assertThat(layer.tensor(att + "." + m + ".weight").shape())
                            .as("layer %d %s.%s", l, att, m)
                            .isEqualTo(Shape.of(288, 288));
                }
            }
            assertThat(layer.tensor("mlp.up_proj.weight").shape()).isEqualTo(Shape.of(2304, 288));
            assertThat(layer.tensor("mlp.up_proj.bias").shape()).isEqualTo(Shape.of(2304));
            assertThat(layer.tensor("mlp.down_proj.weight").shape()).isEqualTo(Shape.of(288, 1152));
            assertThat(layer.tensor("mlp.down_proj.bias").shape()).isEqualTo(Shape.of(288));
        }
        // the output head is the embedding, tied: the export transposes the quantized table and dequantizes that
        float[] head = decoder.scope().tensor("proj_out.weight").toFloatArray();
        assertSameFloats(
                "proj_out.weight vs embed_tokens.weight",
                head,
                d.tensor("embed_tokens.weight").toFloatArray());
    }

    @Test
    void matMulIntegerWeightEqualsOnnxRuntimeDequantizeLinear() throws Exception {
        // layers.0.self_attn.q_proj is MatMulInteger '/layers.0/self_attn/q_proj/MatMul_quant' over
        // onnx::MatMul_1493_quantized
        String q = "onnx::MatMul_1493";
        float[] ort = ortDequantizeLinear(encoderModel, q + "_quantized", q + "_scale", q + "_zero_point");
        HostTensor ours =
                encoder.scope().tensor("layers.0.self_attn.q_proj.weight"); // [out, in] = ONNX's [K, N] transposed
        assertTransposedEqual(ours, ort, 288, 288);
        assertThat(encoder.scope().tensor("/layers.0/self_attn/q_proj/MatMul_quant"))
                .as("by node name")
                .isSameAs(encoder.scope().tensor("/layers.0/self_attn/q_proj/MatMul_quant"));
        assertSameFloats(
                "by node name",
                encoder.scope()
                        .tensor("/layers.0/self_attn/q_proj/MatMul_quant")
                        .toFloatArray(),
                ours.toFloatArray());
    }

    @Test
    void embeddingEqualsOnnxRuntimeDequantizeLinear() throws Exception {
        String q = "model.decoder.embed_tokens.weight_merged_0";
        float[] ort = ortDequantizeLinear(decoderModel, q + "_quantized", q + "_scale", q + "_zero_point");
        assertSameFloats(
                "embedding",
                decoder.scope().tensor("model.decoder.embed_tokens.weight").toFloatArray(),
                ort);
    }

    @Test
    void convWeightEqualsOnnxRuntimeCastMulAdd() throws Exception {
        // the encoder's convs are stored int8 and dequantized in-graph by Cast → Mul(scale) → Add(float offset)
        for (String conv : List.of("conv1", "conv2", "conv3")) {
            String q = conv + ".weight_quantized", s = conv + ".weight_scale", z = conv + ".weight_zero_point";
            OnnxTestWriter w = new OnnxTestWriter();
            copy(encoderModel, w, q, s, z);
            long[] dims = stored(encoderModel, q).dims();
            w.node("cast", "Cast", "", List.of(q), List.of("c"), OnnxTestWriter.intAttr("to", 1))
                    .node("mul", "Mul", "", List.of("c", s), List.of("m"))
                    .node("add", "Add", "", List.of("m", z), List.of("w"))
                    .output("w", OnnxTestWriter.FLOAT, dims);
            float[] ort = run(w.bytes(), "w");
            assertSameFloats(conv, encoder.scope().tensor(conv + ".weight").toFloatArray(), ort);
        }
    }

    @Test
    void sessionWeightTypeConvertsMatmulWeightsOnly() throws Exception {
        try (WeightStore q8 = WeightStore.open(encoderFile, DType.Q8_0)) {
            WeightScope s = q8.scope().child("layers.0");
            assertThat(s.weight("self_attn.q_proj.weight").dtype()).isEqualTo(DType.Q8_0);
            assertThat(s.tensor("self_attn.q_proj.weight").dtype()).isEqualTo(DType.F32);
            assertThat(s.weight("mlp.fc1.bias").dtype())
                    .as("a 1152-vector is 36 blocks: converts")
                    .isEqualTo(DType.Q8_0);
            assertThat(s.tensor("input_layernorm.weight").dtype()).isEqualTo(DType.F32);
            float[] exact = s.tensor("self_attn.q_proj.weight").toFloatArray();
            float[] q = s.weight("self_attn.q_proj.weight").toFloatArray();
            double err = 0, ref = 0;
            for (int i = 0; i < exact.length; i++) {
                err += (q[i] - exact[i]) * (double) (q[i] - exact[i]);
                ref += exact[i] * (double) exact[i];
            }
            assertThat(err / ref).as("Q8_0 of an 8-bit weight").isLessThan(1e-4).isGreaterThan(0);
        }
        try (WeightStore f16 = WeightStore.open(decoderFile, DType.F16)) {
            assertThat(f16.scope()
                            .weight("model.decoder.layers.3.mlp.up_proj.weight")
                            .dtype())
                    .isEqualTo(DType.F16);
        }
    }

    @Test
    void integerConstantsReadExactly() {
        // regression: has() and tensor() threw on an INT64 constant (the GroupNorm reshape target)
        assertThat(encoder.scope().has("/groupnorm/Constant_output_0")).isTrue();
        assertThat(encoder.scope().tensor("/groupnorm/Constant_output_0").toFloatArray())
                .containsExactly(0f, 1f, -1f);
        assertThat(encoder.scope()
                        .tensor("/layers.0/self_attn/Constant_4_output_0")
                        .toFloatArray())
                .as("head size")
                .containsExactly(36f);
    }

    @Test
    void missingNameSaysWhatWasTried() {
        assertThatThrownBy(() -> encoder.scope().child("layers.0.self_attn").tensor("o_proj.weight"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("layers.0.self_attn.o_proj.weight")
                .hasMessageContaining("/layers.0/self_attn/o_proj/{MatMul,Gemm,Conv,ConvTranspose}[_quant]")
                .hasMessageContaining("stored tensors");
    }

    // ---- ONNX Runtime side -------------------------------------------------------------------

    private static float[] ortDequantizeLinear(OnnxModel from, String q, String scale, String zp) throws Exception {
        OnnxTestWriter w = new OnnxTestWriter();
        copy(from, w, q, scale, zp);
        w.node("dq", "DequantizeLinear", "", List.of(q, scale, zp), List.of("w"))
                .output("w", OnnxTestWriter.FLOAT, stored(from, q).dims());
        return run(w.bytes(), "w");
    }

    static float[] run(byte[] model, String output) throws Exception {
        try (OrtSession session = ORT.createSession(model, new OrtSession.SessionOptions());
                OrtSession.Result r = session.run(Map.of())) {
            OnnxTensor t = (OnnxTensor) r.get(output).orElseThrow();
            FloatBuffer b = t.getFloatBuffer();
            float[] out = new float[b.remaining()];
            b.get(out);
            return out;
        }
    }

    private static void copy(OnnxModel from, OnnxTestWriter to, String... names) {
        for (String n : names) {
            var t = stored(from, n);
            to.initializer(n, t.dataType(), t.dims(), t.bytes().toArray(ValueLayout.JAVA_BYTE));
        }
    }

    private static dev.audioengine.weights.onnx.OnnxTensor stored(OnnxModel m, String name) {
        return m.graph().initializers().stream()
                .filter(t -> t.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("the file has no initializer " + name));
    }

    /** Bit-for-bit equality with the first difference in the message (assertj's containsExactly is quadratic). */
    static void assertSameFloats(String what, float[] actual, float[] expected) {
        assertThat(actual.length).as(what + ": length").isEqualTo(expected.length);
        for (int i = 0; i < actual.length; i++) {
            if (Float.compare(actual[i], expected[i]) != 0) {
                throw new AssertionError(what + ": element " + i + " is " + actual[i] + ", expected " + expected[i]);
            }
        }
    }

    private static void assertTransposedEqual(HostTensor ours, float[] onnxKN, int k, int n) {
        assertThat(ours.shape()).isEqualTo(Shape.of(n, k));
        float[] o = ours.toFloatArray();
        for (int i = 0; i < k; i++) {
            for (int j = 0; j < n; j++) {
                if (Float.compare(o[j * k + i], onnxKN[i * n + j]) != 0) {
                    throw new AssertionError(
                            "weight[" + j + "][" + i + "] = " + o[j * k + i] + ", ONNX Runtime " + onnxKN[i * n + j]);
                }
            }
        }
    }
}
