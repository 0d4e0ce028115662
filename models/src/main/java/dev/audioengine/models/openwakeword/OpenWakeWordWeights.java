package dev.audioengine.models.openwakeword;

import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.weights.onnx.OnnxAttribute;
import dev.audioengine.weights.onnx.OnnxModel;
import dev.audioengine.weights.onnx.OnnxNode;
import dev.audioengine.weights.onnx.OnnxTensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The weights of openWakeWord's shared front end, read from the initializers of its two ONNX files:
 * <ul>
 *   <li>{@code melspectrogram.onnx}: the STFT as two strided convolutions ({@code 0.stft.conv_real.weight},
 *       {@code 0.stft.conv_imag.weight}, [257, 1, 512], stride 160) and the mel matrix {@code 1.melW} [257, 32];
 *   <li>{@code embedding_model.onnx} (Google's speech embedding, through tf2onnx): twenty 2-D convolutions with batch
 *       norm folded in, located by the Conv nodes they feed, in file order, with the max pools between them.
 * </ul>
 * The constants the network hard-codes (amin 1e-10, top_db 80, the leaky ReLU's slope and floor) are checked against
 * the file where it holds them, so a file of another shape fails here rather than computing something else.
 */
final class OpenWakeWordWeights implements AutoCloseable {
    private final List<HostTensor> owned = new ArrayList<>(); // first: the constants below are owned as they are made

    /** One 2-D convolution of the embedding network, channels-last: im2col weights [Cout, kh·kw·Cin], taps outermost. */
    record Conv(int kh, int kw, int cin, int cout, int padW, HostTensor matrix, HostTensor bias, boolean activated) {}

    /** A max pool of kh × kw with the same stride, on [N, H, W, C]. */
    record Pool(int kh, int kw) {}

    /** The STFT basis as one GEMM operand [2·257, 512] (real rows, then imaginary), times 2¹⁵: see {@link #frontEnd}. */
    final HostTensor stftBasis;
    /** The mel filter bank transposed for the GEMM: [32, 257]. */
    final HostTensor melMatrix;
    /** The embedding network's layers in order: {@link Conv} and {@link Pool} records. */
    final List<Object> embeddingLayers;
    /** The mel graph's scalar operands: ln 10 (its Div after ×10) and openWakeWord's divisor 10. */
    final HostTensor ln10 = own(HostTensor.ofFloats(Shape.of(new long[0]), LN10)),
            ten = own(HostTensor.ofFloats(Shape.of(new long[0]), 10f));
    /** melspectrogram.onnx's first Clip minimum (amin, 1e-10) as a scalar operand of {@code maximum}. */
    final HostTensor amin = own(HostTensor.ofFloats(Shape.of(new long[0]), OpenWakeWordNetwork.AMIN));
    /** The divisor melspectrogram.onnx uses for 10·log10: ln 10 as float32. */
    static final float LN10 = 2.3025851f;
    /** The leaky ReLU after each activated convolution: slope and the floor (ONNX {@code Max} with a constant). */
    final float leakySlope, leakyFloor;
    /** {@link #leakyFloor} as a scalar operand of {@code maximum}. */
    final HostTensor leakyFloorValue;

    private OpenWakeWordWeights(OnnxModel mel, String melSource, OnnxModel embedding, String embeddingSource) {
        try {
            Map<String, OnnxTensor> m = initializers(mel);
            OnnxTensor re = require(m, "0.stft.conv_real.weight", melSource),
                    im = require(m, "0.stft.conv_imag.weight", melSource),
                    w = require(m, "1.melW", melSource);
            long bins = OpenWakeWordNetwork.N_FFT / 2 + 1;
            expectShape(re, melSource, bins, 1, OpenWakeWordNetwork.N_FFT);
            expectShape(im, melSource, bins, 1, OpenWakeWordNetwork.N_FFT);
            expectShape(w, melSource, bins, OpenWakeWordNetwork.MEL_BINS);
            checkMelGraph(mel, melSource);
            stftBasis = own(frontEnd(re.toFloatArray(), im.toFloatArray()));
            float[] mw = w.toFloatArray(), t = new float[mw.length];
            for (int k = 0; k < bins; k++)
                for (int j = 0; j < OpenWakeWordNetwork.MEL_BINS; j++)
                    t[j * (int) bins + k] = mw[k * OpenWakeWordNetwork.MEL_BINS + j];
            melMatrix = own(HostTensor.ofFloats(Shape.of(OpenWakeWordNetwork.MEL_BINS, bins), t));

            Map<String, OnnxTensor> e = initializers(embedding);
            List<Object> layers = new ArrayList<>();
            float slope = Float.NaN, floor = Float.NaN;
            for (OnnxNode n : embedding.graph().nodes()) {
                switch (n.opType()) {
                    case "Conv" -> layers.add(conv(n, e, embeddingSource));
                    case "MaxPool" -> layers.add(pool(n, embeddingSource));
                    case "LeakyRelu" -> {
                        float a = n.attribute("alpha") == null
                                ? 0.01f
                                : n.attribute("alpha").f();
                        if (!Float.isNaN(slope) && a != slope)
                            throw format(embeddingSource, "leaky ReLUs of different slopes " + slope + " and " + a);
                        slope = a;
                    }
                    case "Max" -> {
                        OnnxTensor c = e.get(n.inputs().get(1));
                        if (c == null || c.elements() != 1)
                            throw format(embeddingSource, "a Max node without a constant floor: " + n.inputs());
                        float f = c.toFloatArray()[0];
                        if (!Float.isNaN(floor) && f != floor)
                            throw format(embeddingSource, "activation floors " + floor + " and " + f);
                        floor = f;
                    }
                    case "Reshape" -> {}
                    default -> throw format(embeddingSource, "unexpected " + n.opType() + " node " + n.name());
                }
            }
            if (!(slope > 0 && slope < 1) || !(floor <= 0))
                throw format(
                        embeddingSource,
                        "expected leaky ReLUs of slope in (0, 1) floored at or below 0, got slope " + slope + ", floor "
                                + floor);
            leakySlope = slope;
            leakyFloor = floor;
            leakyFloorValue = own(HostTensor.ofFloats(Shape.of(new long[0]), floor));
            embeddingLayers = List.copyOf(markActivations(layers, embeddingSource));
            checkEmbeddingShapes(embeddingSource);
        } catch (RuntimeException ex) {
            close();
            throw ex;
        }
    }

    /** Reads both front-end files; a file of another shape fails naming what it lacks. */
    static OpenWakeWordWeights fromOnnx(OnnxModel mel, String melSource, OnnxModel embedding, String embeddingSource) {
        return new OpenWakeWordWeights(mel, melSource, embedding, embeddingSource);
    }

    /**
     * The two STFT kernels stacked as GEMM rows and multiplied by 2¹⁵: openWakeWord feeds the mel model 16-bit PCM
     * values (-32768..32767), the engine's audio is in [-1, 1]; scaling the basis by a power of two instead of the
     * samples gives bit-identical products.
     */
    private static HostTensor frontEnd(float[] re, float[] im) {
        float[] b = new float[re.length + im.length];
        for (int i = 0; i < re.length; i++) b[i] = re[i] * OpenWakeWordNetwork.PCM_SCALE;
        for (int i = 0; i < im.length; i++) b[re.length + i] = im[i] * OpenWakeWordNetwork.PCM_SCALE;
        return HostTensor.ofFloats(Shape.of(b.length / OpenWakeWordNetwork.N_FFT, OpenWakeWordNetwork.N_FFT), b);
    }

    /**
     * The mel graph's ops after the mel matmul must be the ones {@link OpenWakeWordNetwork#mel} computes: Clip at
     * amin, Log, ×10, ÷ln 10, ReduceMax over the whole output, Sub top_db, Clip from below.
     */
    private static void checkMelGraph(OnnxModel mel, String source) {
        List<String> ops = new ArrayList<>();
        List<Float> scalars = new ArrayList<>();
        Map<String, OnnxTensor> init = initializers(mel);
        for (OnnxNode n : mel.graph().nodes()) {
            if (n.opType().equals("Constant")) {
                OnnxAttribute v = n.attribute("value");
                if (v != null && v.t() != null && v.t().dataType() == OnnxTensor.FLOAT && v.t().elements() == 1)
                    scalars.add(v.t().toFloatArray()[0]);
                continue;
            }
            ops.add(n.opType());
            if (n.opType().equals("Clip") && init.containsKey(n.inputs().get(1))) {
                OnnxTensor lo = init.get(n.inputs().get(1));
                if (lo.elements() != 1 || lo.toFloatArray()[0] != OpenWakeWordNetwork.AMIN)
                    throw format(
                            source,
                            "the power floor is " + Arrays.toString(lo.toFloatArray()) + ", expected "
                                    + OpenWakeWordNetwork.AMIN);
            }
        }
        List<String> expected = List.of(
                "Unsqueeze",
                "Conv",
                "Conv",
                "Unsqueeze",
                "Transpose",
                "Unsqueeze",
                "Transpose",
                "Pow",
                "Pow",
                "Add",
                "MatMul",
                "Clip",
                "Log",
                "Mul",
                "Div",
                "Sub",
                "ReduceMax",
                "Sub",
                "Cast",
                "Clip");
        if (!ops.equals(expected))
            throw format(source, "not openWakeWord's melspectrogram graph: ops " + ops + ", expected " + expected);
        if (!scalars.contains(OpenWakeWordNetwork.TOP_DB) || !scalars.contains(10f) || !scalars.contains(LN10))
            throw format(
                    source,
                    "the melspectrogram graph lacks the constants 10, ln 10 and top_db " + OpenWakeWordNetwork.TOP_DB
                            + ": " + scalars);
    }

    private Conv conv(OnnxNode n, Map<String, OnnxTensor> init, String source) {
        OnnxTensor w = init.get(n.inputs().get(1));
        if (w == null || w.dims().length != 4) throw format(source, "Conv " + n.name() + " has no 4-D weight");
        long[] d = w.dims();
        int cout = (int) d[0], cin = (int) d[1], kh = (int) d[2], kw = (int) d[3];
        for (String a : List.of("strides", "dilations")) {
            OnnxAttribute at = n.attribute(a);
            if (at != null && Arrays.stream(at.ints()).anyMatch(v -> v != 1))
                throw format(source, "Conv " + n.name() + " has " + a + " " + Arrays.toString(at.ints()));
        }
        OnnxAttribute group = n.attribute("group");
        if (group != null && group.i() != 1) throw format(source, "Conv " + n.name() + " is grouped");
        OnnxAttribute pads = n.attribute("pads");
        long[] p = pads == null ? new long[4] : pads.ints();
        int padW = kw / 2;
        // ONNX pads are [top, left, bottom, right]: the network pads the mel axis (W) by kw/2 on both sides, time not
        if (p.length != 4 || p[0] != 0 || p[2] != 0 || p[1] != p[3] || (p[1] != 0 && p[1] != padW))
            throw format(
                    source,
                    "Conv " + n.name() + " pads " + Arrays.toString(p) + " are not 'valid in time, same"
                            + " in frequency'");
        if (p[1] == 0) padW = 0;
        float[] src = w.toFloatArray(), dst = new float[src.length];
        int taps = kh * kw;
        for (int o = 0; o < cout; o++)
            for (int c = 0; c < cin; c++)
                for (int i = 0; i < kh; i++)
                    for (int j = 0; j < kw; j++)
                        dst[(o * taps + i * kw + j) * cin + c] = src[((o * cin + c) * kh + i) * kw + j];
        HostTensor matrix = own(HostTensor.ofFloats(Shape.of(cout, (long) taps * cin), dst));
        HostTensor bias = null;
        if (n.inputs().size() > 2 && !n.inputs().get(2).isEmpty()) {
            OnnxTensor b = init.get(n.inputs().get(2));
            if (b == null || b.elements() != cout) throw format(source, "Conv " + n.name() + " bias");
            bias = own(HostTensor.ofFloats(Shape.of(cout), b.toFloatArray()));
        }
        return new Conv(kh, kw, cin, cout, padW, matrix, bias, false);
    }

    private static Pool pool(OnnxNode n, String source) {
        long[] k = n.attribute("kernel_shape").ints();
        OnnxAttribute s = n.attribute("strides");
        OnnxAttribute pads = n.attribute("pads");
        if (k.length != 2
                || s == null
                || !Arrays.equals(k, s.ints())
                || (pads != null && Arrays.stream(pads.ints()).anyMatch(v -> v != 0)))
            throw format(source, "MaxPool " + n.name() + " is not a plain non-overlapping pool");
        return new Pool((int) k[0], (int) k[1]);
    }

    /** Every convolution but the last is followed by the leaky ReLU (the file's order: Conv, LeakyRelu, Max). */
    private static List<Object> markActivations(List<Object> layers, String source) {
        List<Object> out = new ArrayList<>();
        int convs = (int) layers.stream().filter(Conv.class::isInstance).count(), seen = 0;
        for (Object l : layers) {
            if (l instanceof Conv c) {
                seen++;
                out.add(new Conv(c.kh, c.kw, c.cin, c.cout, c.padW, c.matrix, c.bias, seen < convs));
            } else out.add(l);
        }
        if (convs == 0) throw format(source, "no convolutions");
        return out;
    }

    /** The layers must take a [76, 32] window to [1, 1, 96]. */
    private void checkEmbeddingShapes(String source) {
        long h = OpenWakeWordNetwork.EMBEDDING_WINDOW, w = OpenWakeWordNetwork.MEL_BINS, c = 1;
        for (Object l : embeddingLayers) {
            switch (l) {
                case Conv v -> {
                    if (v.cin != c) throw format(source, "a convolution takes " + v.cin + " channels after " + c);
                    h = h - v.kh + 1;
                    w = w + 2L * v.padW - v.kw + 1;
                    c = v.cout;
                }
                case Pool p -> {
                    if (h % p.kh != 0 || w % p.kw != 0)
                        throw format(source, "a " + p.kh + "x" + p.kw + " pool on " + h + "x" + w);
                    h /= p.kh;
                    w /= p.kw;
                }
                default -> throw new IllegalStateException();
            }
            if (h < 1 || w < 1) throw format(source, "the layers shrink a 76x32 window to nothing");
        }
        if (h != 1 || w != 1 || c != OpenWakeWordNetwork.EMBEDDING_DIM)
            throw format(
                    source,
                    "the layers take a 76x32 window to " + h + "x" + w + "x" + c + ", expected 1x1x"
                            + OpenWakeWordNetwork.EMBEDDING_DIM);
    }

    static Map<String, OnnxTensor> initializers(OnnxModel m) {
        Map<String, OnnxTensor> out = new HashMap<>();
        for (OnnxTensor t : m.graph().initializers()) out.put(t.name(), t);
        for (OnnxTensor t : m.graph().constants()) out.putIfAbsent(t.name(), t);
        return out;
    }

    private static OnnxTensor require(Map<String, OnnxTensor> m, String name, String source) {
        OnnxTensor t = m.get(name);
        if (t == null) throw format(source, "no initializer " + name);
        if (t.dataType() != OnnxTensor.FLOAT) throw format(source, name + " is ONNX type " + t.dataType());
        return t;
    }

    private static void expectShape(OnnxTensor t, String source, long... dims) {
        if (!Arrays.equals(t.dims(), dims))
            throw format(
                    source,
                    t.name() + " has shape " + Arrays.toString(t.dims()) + ", expected " + Arrays.toString(dims));
    }

    static IllegalArgumentException format(String source, String what) {
        return new IllegalArgumentException(source + ": " + what);
    }

    private HostTensor own(HostTensor h) {
        owned.add(h);
        return h;
    }

    @Override
    public void close() {
        owned.forEach(HostTensor::close);
        owned.clear();
    }
}
