package dev.audioengine.models.silero;

import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.weights.onnx.OnnxAttribute;
import dev.audioengine.weights.onnx.OnnxModel;
import dev.audioengine.weights.onnx.OnnxNode;
import dev.audioengine.weights.onnx.OnnxTensor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The weights of one sample rate's branch of a Silero VAD v5/v6 ONNX graph, copied out of the
 * Constant nodes of that If branch: the STFT basis [2F, 1, nFft], four encoder convolutions
 * (kernel 3), the LSTM cell and the 1×1 decoder convolution.
 */
public final class SileroWeights implements AutoCloseable {
    static final int HIDDEN = 128;
    private static final String[] NAMES = {
        "stft.forward_basis_buffer",
        "encoder.0.reparam_conv.weight",
        "encoder.0.reparam_conv.bias",
        "encoder.1.reparam_conv.weight",
        "encoder.1.reparam_conv.bias",
        "encoder.2.reparam_conv.weight",
        "encoder.2.reparam_conv.bias",
        "encoder.3.reparam_conv.weight",
        "encoder.3.reparam_conv.bias",
        "decoder.rnn.weight_ih",
        "decoder.rnn.weight_hh",
        "decoder.rnn.bias_ih",
        "decoder.rnn.bias_hh",
        "decoder.decoder.2.weight",
        "decoder.decoder.2.bias"
    };

    final int sampleRate, nFft, hop, chunk, context;
    final HostTensor basis, wIh, wHh, bIh, bHh, decoderW, decoderB;
    final HostTensor[] encoderW = new HostTensor[4], encoderB = new HostTensor[4];
    /**
     * The same weights as GEMM operands: basis [2F, nFft]; encoder [Cout, taps·Cin] with the taps
     * outermost, holding only the taps that ever see input (see {@link EncoderTaps}).
     */
    final HostTensor basisMatrix;

    final HostTensor[] encoderMatrix = new HostTensor[4];
    final EncoderTaps[] encoderTaps = new EncoderTaps[4];
    private final List<HostTensor> owned = new ArrayList<>();

    private SileroWeights(Map<String, OnnxTensor> t, String source) {
        basis = take(t.get(NAMES[0]));
        nFft = (int) basis.shape().dim(2);
        if (nFft != 256 && nFft != 128) {
            throw new IllegalArgumentException(
                    source + ": STFT basis " + basis.shape() + " is neither the 16 kHz (256) nor the 8 kHz (128) one");
        }
        sampleRate = nFft == 256 ? 16000 : 8000;
        hop = nFft / 2;
        chunk = sampleRate == 16000 ? 512 : 256;
        context = sampleRate == 16000 ? 64 : 32;
        for (int i = 0; i < 4; i++) {
            encoderW[i] = take(t.get(NAMES[1 + 2 * i]));
            encoderB[i] = take(t.get(NAMES[2 + 2 * i]));
        }
        wIh = take(t.get(NAMES[9]));
        wHh = take(t.get(NAMES[10]));
        bIh = take(t.get(NAMES[11]));
        bHh = take(t.get(NAMES[12]));
        OnnxTensor dw = t.get(NAMES[13]);
        decoderW = take(new OnnxTensor(dw.name(), dw.dataType(), new long[] {1, HIDDEN}, dw.bytes()));
        decoderB = take(t.get(NAMES[14]));
        check(
                source,
                basis.shape().dim(0) == 2L * (nFft / 2 + 1) && basis.shape().dim(1) == 1,
                "stft basis",
                basis);
        check(source, encoderW[0].shape().equals(Shape.of(128, nFft / 2 + 1, 3)), "encoder.0", encoderW[0]);
        check(source, encoderW[1].shape().equals(Shape.of(64, 128, 3)), "encoder.1", encoderW[1]);
        check(source, encoderW[2].shape().equals(Shape.of(64, 64, 3)), "encoder.2", encoderW[2]);
        check(source, encoderW[3].shape().equals(Shape.of(128, 64, 3)), "encoder.3", encoderW[3]);
        check(
                source,
                wIh.shape().equals(Shape.of(4 * HIDDEN, HIDDEN)) && wHh.shape().equals(Shape.of(4 * HIDDEN, HIDDEN)),
                "lstm",
                wIh);
        check(source, dw.elements() == HIDDEN && decoderB.elements() == 1, "decoder", decoderW);
        basisMatrix = own(basis.reshaped(Shape.of(basis.shape().dim(0), nFft)));
        long frames = (context + chunk + context - nFft) / hop + 1; // STFT frames per window
        for (int i = 0; i < 4; i++) {
            encoderTaps[i] = EncoderTaps.of(frames, ENCODER_STRIDES[i]);
            encoderMatrix[i] = own(tapsOutermost(encoderW[i], encoderTaps[i]));
            frames = encoderTaps[i].outputFrames();
        }
    }

    static final int[] ENCODER_STRIDES = {1, 2, 2, 1};

    /**
     * [Cout, Cin, 3] → [Cout, taps·Cin] with element (o, j·Cin + c) = w(o, c, first + j), the
     * order of an im2col over time-major input.
     */
    private static HostTensor tapsOutermost(HostTensor w, EncoderTaps taps) {
        int cout = (int) w.shape().dim(0),
                cin = (int) w.shape().dim(1),
                k = (int) w.shape().dim(2),
                n = taps.count();
        float[] src = w.toFloatArray(), dst = new float[cout * n * cin];
        for (int o = 0; o < cout; o++) {
            for (int c = 0; c < cin; c++) {
                for (int j = 0; j < n; j++) dst[(o * n + j) * cin + c] = src[(o * cin + c) * k + taps.first() + j];
            }
        }
        return HostTensor.ofFloats(Shape.of(cout, (long) n * cin), dst);
    }

    /** Both branches of a Silero v5/v6 model, keyed by sample rate. */
    public static Map<Integer, SileroWeights> fromOnnx(OnnxModel model, String source) {
        Map<Integer, SileroWeights> out = new LinkedHashMap<>();
        try {
            for (OnnxNode n : model.graph().nodes()) {
                if (!n.opType().equals("If")) continue;
                for (OnnxAttribute a : n.attributes()) {
                    if (a.g() == null) continue;
                    Map<String, OnnxTensor> byName = new LinkedHashMap<>();
                    for (OnnxTensor c : a.g().constants()) {
                        String plain = plainName(c.name());
                        if (plain != null) byName.put(plain, c);
                    }
                    if (!byName.keySet().containsAll(List.of(NAMES))) continue;
                    SileroWeights w = new SileroWeights(byName, source);
                    SileroWeights old = out.put(w.sampleRate, w);
                    if (old != null) old.close();
                }
            }
        } catch (RuntimeException e) {
            out.values().forEach(SileroWeights::close);
            throw e;
        }
        if (out.size() != 2) {
            out.values().forEach(SileroWeights::close);
            throw new IllegalArgumentException(
                    source + ": not a Silero VAD v5/v6 model: expected If branches for 16 kHz and 8 kHz holding "
                            + String.join(", ", NAMES) + " as Constant nodes; found " + out.keySet() + " Hz");
        }
        return out;
    }

    /** The weight name a Constant's output carries after the exporter's branch prefix, or null. */
    private static String plainName(String output) {
        for (String n : NAMES) if (output.endsWith("__" + n) || output.equals(n)) return n;
        return null;
    }

    private HostTensor take(OnnxTensor t) {
        if (t.dataType() != OnnxTensor.FLOAT)
            throw new IllegalArgumentException(
                    "weight " + t.name() + " is ONNX type " + t.dataType() + ", expected float");
        return own(t.toHostTensor());
    }

    private HostTensor own(HostTensor h) {
        owned.add(h);
        return h;
    }

    private static void check(String source, boolean ok, String what, HostTensor t) {
        if (!ok)
            throw new IllegalArgumentException(
                    source + ": " + what + " has unexpected shape " + t.shape() + " for Silero VAD v5/v6");
    }

    @Override
    public void close() {
        owned.forEach(HostTensor::close);
        owned.clear();
    }
}
