package dev.audioengine.blocks.weights;

import dev.audioengine.weights.onnx.OnnxAttribute;
import dev.audioengine.weights.onnx.OnnxModel;
import dev.audioengine.weights.onnx.OnnxNode;
import dev.audioengine.weights.onnx.OnnxTensor;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An ONNX file as a container of weights, looked up by their PyTorch name (the engine never runs
 * the file's graph). A name N is, in this order:
 * <ol>
 *   <li>a stored tensor (initializer or Constant output) named N, or N with optimum's
 *       {@code _merged_<k>} suffix (merged decoders rename shared weights so);</li>
 *   <li>an 8-bit tensor stored as {@code N_quantized} (or its merged form), dequantized by the rule
 *       of the node that consumes it ({@link OnnxQuantizedWeights}), transposed when that node is a
 *       MatMulInteger reading it as [in, out];</li>
 *   <li>for {@code M.weight} and {@code M.bias} of a module M whose export gave its weight an
 *       anonymous name ({@code onnx::MatMul_1493}): the weight feeding the node torch named after the
 *       module, {@code /M/MatMul} (or Gemm, Conv, ConvTranspose, and the {@code _quant} node
 *       onnx.quantize puts in its place), with the module path's dots turned into slashes except
 *       before list indices ({@code layers.0.self_attn.q_proj} → {@code /layers.0/self_attn/q_proj}),
 *       or, where the export scoped the module otherwise, the node {@link OnnxScopes} finds for it;
 *       a name containing '/' is taken as such a node name directly;</li>
 *   <li>for torch.nn.LSTM parameters ({@code M.weight_ih_l0[_reverse]} etc.): the inputs of the
 *       exported {@code /M/LSTM} (or DynamicQuantizeLSTM {@code /M/LSTM_quant}) node, split by
 *       direction and reordered into PyTorch's gate order ({@link OnnxLstmWeights});</li>
 *   <li>for a norm whose export applied its scale and shift as plain Mul and Add nodes
 *       ({@code /M/Mul}, {@code /M/Add}): their stored operand, as [C].</li>
 * </ol>
 * Every value comes back in PyTorch's layout: MatMul weights, which ONNX stores as [in, out], are
 * transposed to Linear's [out, in].
 */
final class OnnxWeightSource implements WeightSource {
    private static final Pattern MERGED = Pattern.compile("_merged_\\d+");
    private static final List<String> WEIGHT_OPS = List.of("MatMul", "Gemm", "Conv", "ConvTranspose");

    private final OnnxModel model;
    private final boolean owned;
    private final String source;
    private final OnnxIndex index;
    private final OnnxFolder folder;
    private final OnnxQuantizedWeights quantized;
    private final OnnxLstmWeights lstm;
    private final OnnxScopes scopes;
    private final Map<String, String> mergedAliases = new HashMap<>();

    OnnxWeightSource(OnnxModel model, String source, boolean owned) {
        this.model = model;
        this.owned = owned;
        this.source = source;
        this.index = new OnnxIndex(model);
        this.folder = new OnnxFolder(index, source);
        this.quantized = new OnnxQuantizedWeights(index, folder, source);
        this.scopes = new OnnxScopes(index, source);
        this.lstm = new OnnxLstmWeights(folder, quantized, scopes, source);
        for (String name : index.storedNames()) {
            Matcher m = MERGED.matcher(name);
            if (m.find()) mergedAliases.putIfAbsent(m.replaceFirst(""), name);
        }
    }

    @Override
    public Lookup find(String name) {
        Folded v = lookup(name);
        return v == null ? null : new Lookup(v.toHostTensor(), true);
    }

    private Folded lookup(String name) {
        String stored = storedName(name);
        if (stored != null) return folder.fold(stored);
        String q = storedName(name + "_quantized");
        if (q != null) {
            Folded v = quantized.dequantize(q);
            if (v == null) {
                throw new IllegalArgumentException(
                        source + ": '" + q + "' holds " + name + " quantized, but no node of the file says how to"
                                + " dequantize it (looked for DequantizeLinear, MatMulInteger, ConvInteger, DynamicQuantizeLSTM or a Cast chain reading it)");
            }
            return isMatMulIntegerWeight(q) ? v.transposeLastTwo() : v;
        }
        Folded lstmParameter = lstm.find(name);
        if (lstmParameter != null) return lstmParameter;
        if (name.contains("/")) {
            OnnxNode n = index.node(name);
            return n == null ? null : nodeWeight(n, true);
        }
        for (String part : List.of(".weight", ".bias")) {
            if (!name.endsWith(part)) continue;
            String module = name.substring(0, name.length() - part.length());
            OnnxNode n = scopes.find(module, WEIGHT_OPS);
            if (n != null) return nodeWeight(n, part.equals(".weight"));
            String path = nodePath(module);
            Folded affine = part.equals(".weight") ? normScale(path) : normShift(path);
            if (affine != null) return affine;
        }
        return null;
    }

    /** A named Linear weight that MatMulInteger reads as its right operand is stored [in, out]: PyTorch's layout is the transpose. */
    private boolean isMatMulIntegerWeight(String q) {
        for (OnnxNode n : index.consumers(q))
            if (n.opType().equals("MatMulInteger") && n.inputs().get(1).equals(q)) return true;
        return false;
    }

    /**
     * A norm's scale that the export applied as a Mul by a stored per-channel tensor (GroupNorm
     * becomes InstanceNormalization, Reshape, then Mul and Add by [C, 1] tensors): {@code /M/Mul}
     * with one stored operand of more than one value, as [C].
     */
    private Folded normScale(String path) {
        OnnxNode mul = index.node(path + "/Mul");
        if (mul == null || !mul.opType().equals("Mul")) return null;
        Folded v = storedOperand(mul);
        return v == null || v.values().length < 2 ? null : perChannel(v);
    }

    /**
     * The matching shift: {@code /M/Add} whose other operand is that scale's output, so a
     * LayerNorm's {@code /M/Add} (variance + eps) is never taken for a bias.
     */
    private Folded normShift(String path) {
        OnnxNode add = index.node(path + "/Add"), mul = index.node(path + "/Mul");
        if (add == null || mul == null || !add.opType().equals("Add") || normScale(path) == null) return null;
        if (!add.inputs().contains(mul.outputs().getFirst())) return null;
        Folded v = storedOperand(add);
        return v == null ? null : perChannel(v);
    }

    private Folded storedOperand(OnnxNode n) {
        Folded found = null;
        for (String i : n.inputs()) {
            if (index.stored(i) == null) continue;
            if (found != null) return null; // both operands stored: a constant expression, not an affine step
            found = folder.fold(i);
        }
        return found;
    }

    /** [C, 1, ...] broadcast shapes → [C]. */
    private static Folded perChannel(Folded v) {
        long[] shape = v.shape();
        int r = shape.length;
        while (r > 1 && shape[r - 1] == 1) r--;
        return v.reshaped(java.util.Arrays.copyOf(shape, r));
    }

    private String storedName(String name) {
        if (index.stored(name) != null) return name;
        return mergedAliases.get(name);
    }

    /** The weight (input 1) or bias of a MatMul-, Gemm- or Conv-like node, in PyTorch's layout. */
    private Folded nodeWeight(OnnxNode n, boolean weight) {
        List<String> in = n.inputs();
        String op = n.opType();
        if (!weight) return bias(n);
        if (in.size() < 2)
            throw new IllegalArgumentException(source + ": node '" + n.name() + "' (" + op + ") has no weight input");
        String w = in.get(1);
        Folded v = switch (op) {
            case "MatMulInteger", "ConvInteger" -> {
                Folded d = index.stored(w) != null ? quantized.dequantize(w) : null;
                if (d == null)
                    throw new IllegalArgumentException(source + ": the weight '" + w + "' of " + op + " '" + n.name()
                            + "' is not a stored 8-bit tensor");
                yield d;
            }
            case "MatMul", "Gemm", "Conv", "ConvTranspose" -> foldWeight(n, w);
            default ->
                throw new IllegalArgumentException(source + ": node '" + n.name() + "' is a " + op
                        + ", not a node with a weight (MatMul, Gemm, Conv, ConvTranspose or their integer forms)");
        };
        boolean stored = op.startsWith("MatMul") || (op.equals("Gemm") && intAttribute(n, "transB", 0) == 0);
        return stored ? v.transposeLastTwo() : v;
    }

    private Folded foldWeight(OnnxNode n, String w) {
        if (!folder.isFoldable(w)) {
            throw new IllegalArgumentException(source + ": input '" + w + "' of " + n.opType() + " '" + n.name()
                    + "' is computed at run time, not a stored weight");
        }
        OnnxTensor t = index.stored(w);
        if (t != null && (t.dataType() == OnnxTensor.UINT8 || t.dataType() == OnnxTensor.INT8)) {
            Folded d = quantized.dequantize(w);
            if (d != null) return d;
        }
        return folder.fold(w);
    }

    /**
     * Gemm, Conv and ConvTranspose take the bias as input 2; a MatMul's bias is the Add torch exports beside it; a
     * ConvInteger's input 2 is the activation's zero point, its bias the one onnx.quantize adds to the accumulator.
     */
    private Folded bias(OnnxNode n) {
        List<String> in = n.inputs();
        if (n.opType().equals("ConvInteger")) return integerBias(n);
        if (!n.opType().startsWith("MatMul")) {
            return in.size() > 2 && !in.get(2).isEmpty() ? folder.fold(in.get(2)) : null;
        }
        String name =
                n.name().endsWith("_quant") ? n.name().substring(0, n.name().length() - "_quant".length()) : n.name();
        OnnxNode add = index.node(name.substring(0, name.lastIndexOf('/') + 1) + "Add");
        if (add == null || !add.opType().equals("Add")) return null;
        for (String i : add.inputs()) if (index.stored(i) != null) return folder.fold(i);
        return null;
    }

    /**
     * onnx.quantize folds a ConvInteger's float bias into the int32 accumulator: Add(output, Reshape(Cast(Floor(
     * Div(bias, x_scale · w_scale))))). The stored bias of that chain, or null when the conv has none.
     */
    private Folded integerBias(OnnxNode conv) {
        for (OnnxNode add : index.consumers(conv.outputs().getFirst())) {
            if (!add.opType().equals("Add")) continue;
            for (String other : add.inputs()) {
                String v = other;
                for (String op : List.of("Reshape", "Cast", "Floor", "Div")) {
                    OnnxNode p = v == null ? null : index.producer(v);
                    v = p != null && p.opType().equals(op) ? p.inputs().getFirst() : null;
                }
                if (v != null && index.stored(v) != null) return folder.fold(v);
            }
        }
        return null;
    }

    private static long intAttribute(OnnxNode n, String name, long otherwise) {
        OnnxAttribute a = n.attribute(name);
        return a == null ? otherwise : a.i();
    }

    /** torch.onnx's scope path of a module: {@code layers.0.self_attn} → {@code /layers.0/self_attn}. */
    static String nodePath(String module) {
        StringBuilder b = new StringBuilder();
        for (String part : module.split("\\.")) {
            boolean index = !part.isEmpty() && part.chars().allMatch(Character::isDigit);
            b.append(index && !b.isEmpty() ? "." : "/").append(part);
        }
        return b.toString();
    }

    @Override
    public List<String> names() {
        return index.storedNames();
    }

    @Override
    public String location() {
        return source;
    }

    @Override
    public String triedFor(String name) {
        StringBuilder b =
                new StringBuilder("a stored tensor '" + name + "' (or its _merged_<k> form), '" + name + "_quantized'");
        if (name.contains("/")) b.append(", a node named '").append(name).append("'");
        java.util.regex.Matcher lstmName =
                Pattern.compile("(.*)\\.(weight|bias)_(ih|hh)_l0(_reverse)?").matcher(name);
        if (lstmName.matches())
            b.append(", an input of the LSTM node ")
                    .append(nodePath(lstmName.group(1)))
                    .append("/LSTM[_quant]");
        for (String part : List.of(".weight", ".bias")) {
            if (name.endsWith(part)) {
                b.append(", the nodes ")
                        .append(nodePath(name.substring(0, name.length() - part.length())))
                        .append(
                                "/{MatMul,Gemm,Conv,ConvTranspose}[_quant] (also with nn.Sequential's repeated scope collapsed, or inner modules left out)")
                        .append(", the stored operand of ")
                        .append(nodePath(name.substring(0, name.length() - part.length())))
                        .append(part.equals(".weight") ? "/Mul" : "/Add");
            }
        }
        return b.toString();
    }

    @Override
    public void close() {
        if (owned) model.close();
    }
}
