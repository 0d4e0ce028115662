package dev.audioengine.blocks.weights;

import dev.audioengine.weights.onnx.OnnxAttribute;
import dev.audioengine.weights.onnx.OnnxNode;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Dequantizes an 8-bit weight that an ONNX quantizer stored (uint8 or int8, with a scale and a zero
 * point per tensor or per channel) by the rule of the node that consumes it:
 * <ul>
 *   <li>DequantizeLinear(q, scale, zero_point, axis), also after a Gather or Transpose of q (a tied
 *       embedding read both as a table and as the output head), per tensor only in that case;</li>
 *   <li>MatMulInteger(x, q, x_zp, q_zp): the zero point is its fourth input, the scale the
 *       stored {@code <name>_scale} that onnx.quantize writes beside {@code <name>_quantized};
 *       per column of the [K, N] weight when it has N values;</li>
 *   <li>ConvInteger(x, q, x_zp, q_zp): likewise, per output channel (axis 0);</li>
 *   <li>DynamicQuantizeLSTM (com.microsoft): W and R with their scale and zero point inputs (8-11),
 *       per direction or per direction and gate column;</li>
 *   <li>a Cast of q followed by elementwise arithmetic with stored values (the weight-only form
 *       some exporters write, e.g. Cast → Mul(scale) → Add(offset)): that expression, folded.</li>
 * </ul>
 */
final class OnnxQuantizedWeights {
    private static final String QUANTIZED = "_quantized";

    private final OnnxIndex index;
    private final OnnxFolder folder;
    private final String source;

    OnnxQuantizedWeights(OnnxIndex index, OnnxFolder folder, String source) {
        this.index = index;
        this.folder = folder;
        this.source = source;
    }

    /** The dequantized value of stored tensor {@code q} in its own layout, or null when no node says how to dequantize it. */
    Folded dequantize(String q) {
        UnaryOperator<Folded> rule = rule(q, q, false, 0);
        return rule == null ? null : rule.apply(folder.fold(q));
    }

    private UnaryOperator<Folded> rule(String q, String value, boolean viaLayout, int depth) {
        if (depth > 8) return null;
        for (OnnxNode n : index.consumers(value)) {
            List<String> in = n.inputs();
            UnaryOperator<Folded> r = switch (n.opType()) {
                case "DequantizeLinear" -> {
                    if (!in.get(0).equals(value)) yield null;
                    Folded scale = folder.fold(in.get(1));
                    Folded zp = optionalInput(in, 2);
                    OnnxAttribute axis = n.attribute("axis");
                    if (viaLayout && scale.values().length > 1) {
                        throw new IllegalArgumentException(
                                source + ": '" + q + "' is dequantized per channel after a layout change (node '"
                                        + n.name() + "'); its axis no longer refers to the stored layout");
                    }
                    int ax = axis == null ? 1 : (int) axis.i();
                    yield w -> Dequantize.linear(w, scale, zp, ax, q);
                }
                case "MatMulInteger", "ConvInteger" -> {
                    if (viaLayout || !in.get(1).equals(value)) yield null;
                    Folded scale = scaleByName(q, n);
                    Folded zp = optionalInput(in, 3);
                    int axis = n.opType().equals("MatMulInteger") ? -1 : 0;
                    yield w -> Dequantize.linear(w, scale, zp, axis, q);
                }
                case "DynamicQuantizeLSTM" -> {
                    int at = in.indexOf(value);
                    if (viaLayout || (at != 1 && at != 2) || in.size() < 12) yield null;
                    Folded scale = folder.fold(in.get(at == 1 ? 8 : 10));
                    Folded zp = folder.fold(in.get(at == 1 ? 9 : 11));
                    yield w -> lstm(w, scale, zp, n);
                }
                case "Cast" -> viaLayout ? null : castChain(q, n.outputs().getFirst());
                case "Gather", "Transpose", "Reshape", "Squeeze", "Unsqueeze", "Identity" ->
                    in.get(0).equals(value) ? rule(q, n.outputs().getFirst(), true, depth + 1) : null;
                default -> null;
            };
            if (r != null) return r;
        }
        return null;
    }

    private Folded optionalInput(List<String> in, int i) {
        return in.size() > i && !in.get(i).isEmpty() ? folder.fold(in.get(i)) : null;
    }

    private Folded scaleByName(String q, OnnxNode n) {
        if (!q.endsWith(QUANTIZED)) {
            throw new IllegalArgumentException(source + ": '" + q + "' feeds " + n.opType() + " '" + n.name()
                    + "' but is not named <weight>_quantized, so its scale cannot be found");
        }
        String scale = q.substring(0, q.length() - QUANTIZED.length()) + "_scale";
        if (index.stored(scale) == null) {
            throw new IllegalArgumentException(source + ": '" + q + "' feeds " + n.opType() + " '" + n.name()
                    + "' but there is no stored '" + scale + "'");
        }
        return folder.fold(scale);
    }

    /** W [D, I, 4H] or R [D, H, 4H], scale and zero point [D] or [D, 4H]. */
    private Folded lstm(Folded w, Folded scale, Folded zp, OnnxNode n) {
        long d = w.dim(0);
        long[] shape = scale.rank() == 2 ? new long[] {d, 1, scale.dim(1)} : new long[] {d, 1, 1};
        if (scale.values().length != shape[0] * shape[2]) {
            throw new IllegalArgumentException(source + ": DynamicQuantizeLSTM '" + n.name() + "' scale "
                    + java.util.Arrays.toString(scale.shape()) + " does not fit weights "
                    + java.util.Arrays.toString(w.shape()));
        }
        Folded centred = Broadcast.apply("Sub", w, zp.reshaped(shape), source);
        return Broadcast.apply("Mul", centred, scale.reshaped(shape), source);
    }

    /** Cast(q) → (Mul | Add | Sub | Div with a stored operand)* : the whole chain folded, in q's shape. */
    private UnaryOperator<Folded> castChain(String q, String castOut) {
        String cur = castOut;
        while (true) {
            List<OnnxNode> next = index.consumers(cur);
            if (next.size() != 1) break;
            OnnxNode n = next.getFirst();
            if (!List.of("Mul", "Add", "Sub", "Div").contains(n.opType())
                    || n.inputs().size() != 2) break;
            String other = n.inputs().get(0).equals(cur)
                    ? n.inputs().get(1)
                    : n.inputs().get(0);
            if (!folder.isFoldable(other)) break;
            cur = n.outputs().getFirst();
        }
        String end = cur;
        return w -> {
            Folded f = folder.fold(end);
            if (!java.util.Arrays.equals(f.shape(), w.shape())) {
                throw new IllegalArgumentException(
                        source + ": dequantizing '" + q + "' through '" + end + "' changes its shape from "
                                + java.util.Arrays.toString(w.shape()) + " to " + java.util.Arrays.toString(f.shape()));
            }
            return f;
        };
    }
}
