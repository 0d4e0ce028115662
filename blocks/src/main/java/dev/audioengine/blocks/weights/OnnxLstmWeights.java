package dev.audioengine.blocks.weights;

import dev.audioengine.weights.onnx.OnnxNode;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * torch.nn.LSTM's parameters ({@code weight_ih_l0}, {@code weight_hh_l0}, {@code bias_ih_l0},
 * {@code bias_hh_l0}, each also {@code _reverse}) out of the ONNX LSTM node torch exported for the
 * module ({@code /M/LSTM}, or the DynamicQuantizeLSTM {@code /M/LSTM_quant} onnx.quantize puts in
 * its place). ONNX keeps W [D, 4H, I], R [D, 4H, H] (DynamicQuantizeLSTM: transposed, [D, I, 4H]
 * and [D, H, 4H]) and B [D, 8H] = [W biases | R biases] with gates in the order (i, o, f, c);
 * PyTorch's order is (i, f, g, o), so gate blocks are reordered on the way out.
 */
final class OnnxLstmWeights {
    private static final Pattern NAME = Pattern.compile("(.*)\\.(weight_ih|weight_hh|bias_ih|bias_hh)_l0(_reverse)?");
    /** PyTorch gate t (i, f, g, o) is ONNX gate ONNX_GATE[t] (i, o, f, c). */
    private static final int[] ONNX_GATE = {0, 2, 3, 1};

    private final OnnxFolder folder;
    private final OnnxQuantizedWeights quantized;
    private final OnnxScopes scopes;
    private final String source;

    OnnxLstmWeights(OnnxFolder folder, OnnxQuantizedWeights quantized, OnnxScopes scopes, String source) {
        this.folder = folder;
        this.quantized = quantized;
        this.scopes = scopes;
        this.source = source;
    }

    /** The parameter in PyTorch's layout, or null when {@code name} is not an LSTM parameter of an exported LSTM node. */
    Folded find(String name) {
        Matcher m = NAME.matcher(name);
        if (!m.matches()) return null;
        OnnxNode n = scopes.find(m.group(1), List.of("LSTM"));
        if (n == null) return null;
        boolean transposed = n.opType().equals("DynamicQuantizeLSTM");
        if (!transposed && !n.opType().equals("LSTM")) return null;
        int direction = m.group(3) == null ? 0 : 1;
        String kind = m.group(2);
        List<String> in = n.inputs();
        if (kind.startsWith("weight")) {
            String input = in.get(kind.equals("weight_ih") ? 1 : 2);
            Folded v = transposed ? quantized.dequantize(input) : folder.fold(input);
            if (v == null)
                throw new IllegalArgumentException(
                        source + ": no dequantization rule for '" + input + "' of '" + n.name() + "'");
            if (direction >= v.dim(0)) return null;
            Folded one = slice0(v, direction); // [4H, X], or [X, 4H] when transposed
            if (transposed) one = one.transposeLastTwo();
            return gatesInTorchOrder(one);
        }
        if (in.size() < 4 || in.get(3).isEmpty())
            return null; // ONNX's default B is zeros; torch always has biases, so report it absent
        Folded b = folder.fold(in.get(3));
        if (direction >= b.dim(0)) return null;
        Folded one = slice0(b, direction); // [8H]
        long h4 = one.dim(0) / 2;
        float[] half = new float[(int) h4];
        System.arraycopy(one.values(), kind.equals("bias_ih") ? 0 : (int) h4, half, 0, (int) h4);
        return gatesInTorchOrder(new Folded(new long[] {h4}, half));
    }

    private static Folded slice0(Folded v, int i) {
        long[] shape = java.util.Arrays.copyOfRange(v.shape(), 1, v.rank());
        int per = v.values().length / (int) v.dim(0);
        float[] out = new float[per];
        System.arraycopy(v.values(), i * per, out, 0, per);
        return new Folded(shape, out);
    }

    /** The four gate blocks along the first axis ([4H, X] weights, [4H] biases), from ONNX's order into PyTorch's. */
    private static Folded gatesInTorchOrder(Folded v) {
        int gateSize = v.values().length / 4;
        float[] out = new float[v.values().length];
        for (int t = 0; t < 4; t++) System.arraycopy(v.values(), ONNX_GATE[t] * gateSize, out, t * gateSize, gateSize);
        return new Folded(v.shape(), out);
    }
}
