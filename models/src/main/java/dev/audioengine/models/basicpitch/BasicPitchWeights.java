package dev.audioengine.models.basicpitch;

import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.weights.tfjs.TfjsModel;
import dev.audioengine.weights.tfjs.TfjsTensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Basic Pitch's weights, read from the package's TF.js graph model and laid out for {@link BasicPitchNetwork}: the
 * constant-Q kernels as conv1d weights [72 = 36 real + 36 imaginary, 1, 256] per octave, the anti-aliasing filter of
 * each halving, and each 2-D convolution as a conv1d weight over (kernel row × input channel) channels. The numbers the
 * network hard codes (strides, paddings, the harmonic shifts, the log's constants) are checked against the graph's
 * nodes and constants, so a different export is refused rather than run wrongly. Owns its host tensors.
 */
final class BasicPitchWeights implements AutoCloseable {
    private static final String P = "StatefulPartitionedCall/model_1/";
    private static final String CQT = P + "cq_t2010v2_1/";

    /** A 2-D convolution of the model: kernel rows and columns, channels in and out, stride along frequency. */
    record Conv(int kh, int kw, int cin, int cout, int strideF, HostTensor weight, HostTensor bias) {}

    /** Per octave, top (hop 256) first: the real and imaginary kernels stacked, [72, 1, 256]. */
    final List<HostTensor> cqtKernels = new ArrayList<>();
    /**
     * Per halving (8 of them), the 256-tap low-pass applied at stride 2, as a banded matrix [16, 288]: row i is the
     * filter shifted by 2i, so one frame of 288 samples gives 16 outputs.
     */
    final List<HostTensor> lowpass = new ArrayList<>();
    /** sqrt of each CQT bin's kernel length, [309, 1] (nnAudio's "librosa" normalisation). */
    final HostTensor binScale;

    final float logEpsilon, dbPerNeper, bnScale, bnOffset;
    /** Bins shifted per harmonic (0.5, 1, 2, ..., 7): negative moves content up in frequency. */
    final int[] harmonicShifts;

    final Conv contour1, contourOut, note1, noteOut, onset1, onsetOut;
    private final List<HostTensor> owned = new ArrayList<>();

    BasicPitchWeights(TfjsModel m) {
        try {
            for (int k = 0; k < BasicPitchNetwork.OCTAVES; k++) {
                int real = 3 * k, imag = 3 * k + 1, hop = BasicPitchNetwork.HOP >> k;
                requireStride(m, conv1dName(real), hop);
                requireStride(m, conv1dName(imag), hop);
                float[] re = m.weight(conv1dName(real) + "/ExpandDims_1", 1, BasicPitchNetwork.KERNEL, 1, 36)
                        .requireFloats();
                float[] im = m.weight(conv1dName(imag) + "/ExpandDims_1", 1, BasicPitchNetwork.KERNEL, 1, 36)
                        .requireFloats();
                float[] w = new float[72 * BasicPitchNetwork.KERNEL];
                for (int o = 0; o < 36; o++)
                    for (int t = 0; t < BasicPitchNetwork.KERNEL; t++) {
                        w[o * BasicPitchNetwork.KERNEL + t] = re[t * 36 + o];
                        w[(36 + o) * BasicPitchNetwork.KERNEL + t] = im[t * 36 + o];
                    }
                cqtKernels.add(own(HostTensor.ofFloats(Shape.of(72, 1, BasicPitchNetwork.KERNEL), w)));
                String mirror = k == 0 ? "reflection_pad1d/MirrorPad" : "reflection_pad1d/MirrorPad_" + k;
                requireInts(
                        m,
                        CQT + mirror + "/paddings",
                        0,
                        0,
                        0,
                        0,
                        BasicPitchNetwork.KERNEL / 2,
                        BasicPitchNetwork.KERNEL / 2);
                if (k < BasicPitchNetwork.OCTAVES - 1) {
                    int down = 3 * k + 2;
                    requireStride(m, conv1dName(down), 2);
                    requireInts(
                            m,
                            CQT + (k == 0 ? "Pad" : "Pad_" + k) + "/paddings",
                            0,
                            0,
                            0,
                            0,
                            BasicPitchNetwork.LOWPASS_PAD,
                            BasicPitchNetwork.LOWPASS_PAD);
                    float[] h = m.weight(conv1dName(down) + "/ExpandDims_1", 1, BasicPitchNetwork.KERNEL, 1, 1)
                            .requireFloats();
                    // banded: output i of a row of HALVING_OUTPUTS reads the frame's samples 2i .. 2i + 255
                    int outs = BasicPitchNetwork.HALVING_OUTPUTS, width = BasicPitchNetwork.HALVING_FRAME;
                    float[] band = new float[outs * width];
                    for (int i = 0; i < outs; i++)
                        System.arraycopy(h, 0, band, i * width + 2 * i, BasicPitchNetwork.KERNEL);
                    lowpass.add(own(HostTensor.ofFloats(Shape.of(outs, width), band)));
                }
            }
            requireInts(m, CQT + "strided_slice_9/stack", 0, -BasicPitchNetwork.CQT_BINS, 0);
            binScale = own(HostTensor.ofFloats(
                    Shape.of(BasicPitchNetwork.CQT_BINS, 1),
                    m.weight(CQT + "Sqrt", BasicPitchNetwork.CQT_BINS, 1, 1).requireFloats()));
            logEpsilon = scalar(m, P + "normalized_log_1/add/y");
            dbPerNeper = scalar(m, P + "normalized_log_1/truediv");
            requireInts(m, P + "normalized_log_1/Min/reduction_indices", 1, 2);
            requireInts(m, P + "normalized_log_1/Max/reduction_indices", 1, 2);
            if (!m.node(P + "normalized_log_1/div_no_nan").op().equals("DivNoNan"))
                throw new IllegalArgumentException("the log normalisation is not a DivNoNan");
            bnScale = scalar(m, P + "batch_normalization/FusedBatchNormV3/Scaled");
            bnOffset = scalar(m, P + "batch_normalization/FusedBatchNormV3/Offset");
            harmonicShifts = harmonicShifts(m, "harmonic_stacking");
            if (!Arrays.equals(harmonicShifts, harmonicShifts(m, "harmonic-stacking-diff")))
                throw new IllegalArgumentException("the two harmonic stackings differ");

            contour1 = conv(m, "re_lu_1/Relu", "conv2d_1/Conv2D_weights", "conv2d_1/Conv2D_bn_offset");
            contourOut = conv(
                    m,
                    "contours-reduced/BiasAdd",
                    "contours-reduced/Conv2D/ReadVariableOp",
                    "contours-reduced/BiasAdd/ReadVariableOp");
            note1 = conv(m, "re_lu_2/Relu", "conv2d_2/Conv2D/ReadVariableOp", "conv2d_2/BiasAdd/ReadVariableOp");
            noteOut = conv(m, "conv2d_3/BiasAdd", "conv2d_3/Conv2D/ReadVariableOp", "conv2d_3/BiasAdd/ReadVariableOp");
            onset1 = conv(m, "re_lu_3/Relu", "conv2d_4/Conv2D_weights", "conv2d_4/Conv2D_bn_offset");
            onsetOut = conv(m, "conv2d_5/BiasAdd", "conv2d_5/Conv2D/ReadVariableOp", "conv2d_5/BiasAdd/ReadVariableOp");
            List<String> concat = m.node(P + "concat/concat").inputs();
            if (!concat.get(0).equals(P + "conv2d_3/Sigmoid") || !concat.get(1).equals(P + "re_lu_3/Relu"))
                throw new IllegalArgumentException("the onset head's input is not [notes, onset features]");
        } catch (RuntimeException e) {
            close();
            throw new IllegalArgumentException(
                    m.file() + " is not Basic Pitch's TF.js model as the engine knows it: " + e.getMessage(), e);
        }
    }

    private static String conv1dName(int i) {
        return CQT + (i == 0 ? "conv1d" : "conv1d_" + i);
    }

    @SuppressWarnings("unchecked")
    private static List<Object> ints(TfjsModel m, String node, String attr) {
        Map<String, Object> a = (Map<String, Object>) m.node(node).attributes().get(attr);
        if (a == null) throw new IllegalArgumentException(node + " has no " + attr);
        return (List<Object>) ((Map<String, Object>) a.get("list")).get("i");
    }

    private static void requireStride(TfjsModel m, String node, int stride) {
        List<Object> s = ints(m, node, "strides");
        if (!String.valueOf(s.get(2)).equals(String.valueOf(stride))
                || !String.valueOf(s.get(1)).equals("1"))
            throw new IllegalArgumentException(node + " has strides " + s + ", expected " + stride + " along time");
    }

    private static void requireInts(TfjsModel m, String name, int... want) {
        int[] got = m.weight(name).requireInts();
        if (!Arrays.equals(got, want))
            throw new IllegalArgumentException(
                    name + " is " + Arrays.toString(got) + ", expected " + Arrays.toString(want));
    }

    private static float scalar(TfjsModel m, String name) {
        TfjsTensor t = m.weight(name);
        if (t.elements() != 1) throw new IllegalArgumentException(name + " is not a scalar");
        return t.requireFloats()[0];
    }

    /** The shift of each harmonic's copy, from the stacking's slices and paddings (Pad first: the sub-harmonic). */
    private static int[] harmonicShifts(TfjsModel m, String layer) {
        String p = P + layer + "/";
        List<String> in = m.node(p + "concat").inputs();
        int[] shifts = new int[BasicPitchNetwork.HARMONICS];
        if (in.size() != BasicPitchNetwork.HARMONICS + 1)
            throw new IllegalArgumentException(layer + " stacks " + (in.size() - 1) + " copies");
        int pad = 0;
        for (int h = 0; h < BasicPitchNetwork.HARMONICS; h++) {
            String src = in.get(h);
            if (src.equals(P + "batch_normalization/FusedBatchNormV3")) continue; // harmonic 1: unshifted
            String suffix = pad == 0 ? "" : "_" + pad;
            if (!src.equals(p + "Pad" + suffix)) throw new IllegalArgumentException(layer + " input " + src);
            int[] pads =
                    m.weight(p + (pad == 0 ? "Const" : "Const_" + pad), 4, 2).requireInts();
            int[] begin = m.weight(p + "strided_slice" + suffix + "/stack", 4).requireInts();
            int[] end = m.weight(p + "strided_slice" + suffix + "/stack_1", 4).requireInts();
            if (pads[4] > 0) { // x[..., :-s] padded s before: content moves up by s bins
                if (end[2] != -pads[4] || begin[2] != 0) throw new IllegalArgumentException(layer + " copy " + h);
                shifts[h] = -pads[4];
            } else { // x[..., s:] padded s after
                if (begin[2] != pads[5] || end[2] != 0) throw new IllegalArgumentException(layer + " copy " + h);
                shifts[h] = pads[5];
            }
            pad++;
        }
        requireInts(m, p + "strided_slice_7/stack_1", 0, 0, BasicPitchNetwork.CONTOUR_BINS, 0);
        return shifts;
    }

    /**
     * A fused Conv2D node's kernel [kh, kw, Cin, Cout] as a conv1d weight [Cout, kh·Cin, kw] (channel i·Cin + c is
     * input channel c of kernel row i), its bias, and its frequency stride; SAME padding and unit time stride checked.
     */
    private Conv conv(TfjsModel m, String node, String weight, String bias) {
        TfjsModel.Node n = m.node(P + node);
        if (!n.inputs().get(1).equals(P + weight) || !n.inputs().get(2).equals(P + bias))
            throw new IllegalArgumentException(node + " does not read " + weight);
        List<Object> strides = ints(m, P + node, "strides");
        @SuppressWarnings("unchecked")
        String pad = String.valueOf(((Map<String, Object>) n.attributes().get("padding")).get("s"));
        if (!pad.equals("U0FNRQ==")) // base64 "SAME"
        throw new IllegalArgumentException(node + " is not SAME-padded");
        if (!String.valueOf(strides.get(1)).equals("1"))
            throw new IllegalArgumentException(node + " has a time stride: " + strides);
        TfjsTensor w = m.weight(P + weight);
        long[] s = w.shape();
        int kh = (int) s[0], kw = (int) s[1], cin = (int) s[2], cout = (int) s[3];
        if (kh % 2 == 0) throw new IllegalArgumentException(node + ": an even kernel height");
        float[] src = w.requireFloats(), dst = new float[src.length];
        for (int i = 0; i < kh; i++)
            for (int j = 0; j < kw; j++)
                for (int c = 0; c < cin; c++)
                    for (int o = 0; o < cout; o++)
                        dst[(o * kh * cin + i * cin + c) * kw + j] = src[((i * kw + j) * cin + c) * cout + o];
        float[] b = m.weight(P + bias, cout).requireFloats();
        return new Conv(
                kh,
                kw,
                cin,
                cout,
                Integer.parseInt(String.valueOf(strides.get(2))),
                own(HostTensor.ofFloats(Shape.of(cout, (long) kh * cin, kw), dst)),
                own(HostTensor.ofFloats(Shape.of(cout), b)));
    }

    private HostTensor own(HostTensor t) {
        owned.add(t);
        return t;
    }

    @Override
    public void close() {
        owned.forEach(HostTensor::close);
        owned.clear();
    }
}
