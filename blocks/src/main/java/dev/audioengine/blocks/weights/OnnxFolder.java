package dev.audioengine.blocks.weights;

import dev.audioengine.api.tensor.HalfFloats;
import dev.audioengine.weights.onnx.OnnxAttribute;
import dev.audioengine.weights.onnx.OnnxNode;
import dev.audioengine.weights.onnx.OnnxTensor;
import java.util.Arrays;
import java.util.List;

/**
 * Computes, at load, values that an ONNX file stores as a small expression of stored tensors
 * instead of a tensor: a weight that a quantizer left as Cast → Mul → Add, a Transpose then
 * DequantizeLinear of a tied embedding, a Reshape of a constant. Only ops whose inputs are all
 * stored or themselves foldable are evaluated; anything that depends on a graph input is not a
 * weight and fails with the chain that led there.
 */
final class OnnxFolder {
    /** Weight expressions are a handful of nodes deep; a bound keeps a cyclic or hostile graph from exhausting the stack. */
    private static final int MAX_DEPTH = 32;

    private final OnnxIndex index;
    private final String source;

    OnnxFolder(OnnxIndex index, String source) {
        this.index = index;
        this.source = source;
    }

    /** True when {@code value} is stored or computable from stored tensors alone. */
    boolean isFoldable(String value) {
        return foldable(value, 0);
    }

    private boolean foldable(String value, int depth) {
        if (index.stored(value) != null) return true;
        OnnxNode n = index.producer(value);
        if (n == null || depth > MAX_DEPTH || !supported(n.opType())) return false;
        for (String in : n.inputs()) if (!in.isEmpty() && !foldable(in, depth + 1)) return false;
        return true;
    }

    Folded fold(String value) {
        return fold(value, 0);
    }

    private Folded fold(String value, int depth) {
        OnnxTensor t = index.stored(value);
        if (t != null) return stored(t);
        if (depth > MAX_DEPTH) throw error(value, "is computed through more than " + MAX_DEPTH + " nodes");
        OnnxNode n = index.producer(value);
        if (n == null) throw error(value, "is a graph input, not a weight");
        if (!supported(n.opType())) {
            throw error(
                    value,
                    "comes from " + n.opType() + " node '" + n.name()
                            + "', which is not a weight expression (foldable: " + String.join(", ", SUPPORTED) + ")");
        }
        if (n.outputs().indexOf(value) != 0)
            throw error(value, "is output " + n.outputs().indexOf(value) + " of '" + n.name() + "'");
        List<String> in = n.inputs();
        return switch (n.opType()) {
            case "Identity" -> fold(in.get(0), depth + 1);
            case "Cast" -> cast(n, fold(in.get(0), depth + 1));
            case "Add", "Sub", "Mul", "Div" ->
                Broadcast.apply(n.opType(), fold(in.get(0), depth + 1), fold(in.get(1), depth + 1), source);
            case "DequantizeLinear" -> {
                OnnxAttribute axis = n.attribute("axis");
                OnnxAttribute block = n.attribute("block_size");
                if (block != null && block.i() != 0)
                    throw error(value, "uses blocked DequantizeLinear (block_size " + block.i() + ")");
                Folded zp = in.size() > 2 && !in.get(2).isEmpty() ? fold(in.get(2), depth + 1) : null;
                yield Dequantize.linear(
                        fold(in.get(0), depth + 1),
                        fold(in.get(1), depth + 1),
                        zp,
                        axis == null ? 1 : (int) axis.i(),
                        value);
            }
            case "Transpose" -> {
                Folded x = fold(in.get(0), depth + 1);
                OnnxAttribute p = n.attribute("perm");
                int[] perm = new int[x.rank()];
                for (int i = 0; i < perm.length; i++) perm[i] = p == null ? perm.length - 1 - i : (int) p.ints()[i];
                yield x.permute(perm);
            }
            case "Reshape" -> {
                Folded x = fold(in.get(0), depth + 1);
                yield x.reshaped(reshapeTarget(x.shape(), integers(in.get(1), depth), value));
            }
            case "Unsqueeze", "Squeeze" -> {
                Folded x = fold(in.get(0), depth + 1);
                long[] axes = in.size() > 1 && !in.get(1).isEmpty()
                        ? integers(in.get(1), depth)
                        : n.attribute("axes") != null ? n.attribute("axes").ints() : null;
                yield x.reshaped(
                        n.opType().equals("Unsqueeze")
                                ? unsqueezed(x.shape(), axes, value)
                                : squeezed(x.shape(), axes, value));
            }
            default -> throw new IllegalStateException("supported() admitted " + n.opType());
        };
    }

    private static final List<String> SUPPORTED = List.of(
            "Identity",
            "Cast",
            "Add",
            "Sub",
            "Mul",
            "Div",
            "DequantizeLinear",
            "Transpose",
            "Reshape",
            "Unsqueeze",
            "Squeeze");

    private static boolean supported(String op) {
        return SUPPORTED.contains(op);
    }

    private Folded stored(OnnxTensor t) {
        long[] dims = t.dims();
        return new Folded(
                dims,
                switch (t.dataType()) {
                    case OnnxTensor.FLOAT,
                            OnnxTensor.DOUBLE,
                            OnnxTensor.FLOAT16,
                            OnnxTensor.UINT8,
                            OnnxTensor.INT8,
                            OnnxTensor.INT16,
                            OnnxTensor.UINT16,
                            OnnxTensor.INT32 -> t.toFloatArray();
                    case OnnxTensor.BFLOAT16 -> {
                        float[] v = new float[(int) t.elements()];
                        for (int i = 0; i < v.length; i++) {
                            v[i] = HalfFloats.bf16ToFloat(
                                    t.bytes().get(java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED, 2L * i));
                        }
                        yield v;
                    }
                    case OnnxTensor.INT64, OnnxTensor.UINT32, OnnxTensor.UINT64 -> {
                        long[] l = t.toLongArray();
                        float[] v = new float[l.length];
                        for (int i = 0; i < l.length; i++) {
                            if (Math.abs(l[i]) > 1 << 24)
                                throw error(
                                        t.name(),
                                        "holds the integer " + l[i] + ", which float32 cannot represent exactly");
                            v[i] = l[i];
                        }
                        yield v;
                    }
                    default ->
                        throw error(
                                t.name(), "has ONNX element type " + t.dataType() + ", which holds no numeric values");
                });
    }

    private Folded cast(OnnxNode n, Folded x) {
        OnnxAttribute to = n.attribute("to");
        int type = to == null ? -1 : (int) to.i();
        float[] v = x.values();
        switch (type) {
            case OnnxTensor.FLOAT, OnnxTensor.DOUBLE -> {
                return x;
            }
            case OnnxTensor.FLOAT16 -> {
                float[] r = new float[v.length];
                for (int i = 0; i < v.length; i++) r[i] = HalfFloats.f16ToFloat(HalfFloats.floatToF16(v[i]));
                return new Folded(x.shape(), r);
            }
            case OnnxTensor.INT8, OnnxTensor.UINT8, OnnxTensor.INT32 -> {
                for (float f : v) {
                    if (f != Math.rint(f))
                        throw error(n.outputs().getFirst(), "casts non-integer values to integer type " + type);
                }
                return x;
            }
            default ->
                throw error(
                        n.outputs().getFirst(),
                        "is a Cast to ONNX type " + type + ", which a weight expression does not use");
        }
    }

    private long[] integers(String value, int depth) {
        OnnxTensor t = index.stored(value);
        if (t != null && (t.dataType() == OnnxTensor.INT64 || t.dataType() == OnnxTensor.INT32)) return t.toLongArray();
        float[] v = fold(value, depth + 1).values();
        long[] out = new long[v.length];
        for (int i = 0; i < v.length; i++) out[i] = (long) v[i];
        return out;
    }

    private long[] reshapeTarget(long[] in, long[] spec, String value) {
        long[] out = spec.clone();
        long known = 1, total = 1;
        int infer = -1;
        for (long d : in) total *= d;
        for (int i = 0; i < out.length; i++) {
            if (out[i] == 0) {
                if (i >= in.length)
                    throw error(value, "reshape copies axis " + i + " of a rank " + in.length + " tensor");
                out[i] = in[i];
            }
            if (out[i] == -1) {
                if (infer >= 0) throw error(value, "reshape has two -1 dimensions");
                infer = i;
            } else if (out[i] < 0) {
                throw error(value, "reshape to " + Arrays.toString(spec));
            } else {
                known *= out[i];
            }
        }
        if (infer >= 0) out[infer] = known == 0 ? 0 : total / known;
        long n = 1;
        for (long d : out) n *= d;
        if (n != total) throw error(value, "reshape of " + Arrays.toString(in) + " to " + Arrays.toString(spec));
        return out;
    }

    private long[] unsqueezed(long[] in, long[] axes, String value) {
        if (axes == null) throw error(value, "Unsqueeze without axes");
        int r = in.length + axes.length;
        boolean[] inserted = new boolean[r];
        for (long a : axes) {
            int ax = (int) (a < 0 ? a + r : a);
            if (ax < 0 || ax >= r || inserted[ax]) throw error(value, "Unsqueeze axes " + Arrays.toString(axes));
            inserted[ax] = true;
        }
        long[] out = new long[r];
        for (int i = 0, j = 0; i < r; i++) out[i] = inserted[i] ? 1 : in[j++];
        return out;
    }

    private long[] squeezed(long[] in, long[] axes, String value) {
        boolean[] drop = new boolean[in.length];
        if (axes == null) {
            for (int i = 0; i < in.length; i++) drop[i] = in[i] == 1;
        } else {
            for (long a : axes) {
                int ax = (int) (a < 0 ? a + in.length : a);
                if (ax < 0 || ax >= in.length || in[ax] != 1)
                    throw error(value, "Squeeze axes " + Arrays.toString(axes) + " of " + Arrays.toString(in));
                drop[ax] = true;
            }
        }
        return java.util.stream.IntStream.range(0, in.length)
                .filter(i -> !drop[i])
                .mapToLong(i -> in[i])
                .toArray();
    }

    IllegalArgumentException error(String value, String what) {
        return new IllegalArgumentException(source + ": value '" + value + "' " + what);
    }
}
