package dev.audioengine.blocks;

import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.blocks.weights.WeightStore;
import java.util.Set;

/**
 * softmax(q·kᵀ·scale [+ causal mask]) · v for q [B, H, Tq, D] and k, v [B, Hkv, Tk, D] (H a
 * multiple of Hkv: query head h reads kv head h / (H / Hkv)), lowered by the effective
 * capability set: the fused attention op under {@link Capability#FUSED_ATTENTION}, otherwise
 * matmul → softmax → matmul. The composite form folds each kv head's group of query heads into
 * its rows ([B, Hkv, H/Hkv · Tq, D]) instead of copying keys and values per query head; causal
 * masking is then an additive [H/Hkv · Tq, Tk] constant (0 or −inf), owned by the weight store.
 * Causal means key j is hidden from query i when j > i + (Tk − Tq), the fused op's rule, so a
 * block of new queries at the end of a longer key sequence sees everything before it.
 */
public final class AttentionLowering {
    private AttentionLowering() {}

    public static Tensor apply(
            GraphBuilder g,
            Tensor q,
            Tensor k,
            Tensor v,
            float scale,
            boolean causal,
            Set<Capability> effective,
            WeightStore constants) {
        return apply(g, q, k, v, null, scale, causal, effective, constants);
    }

    /**
     * With an additive {@code mask} [Tq, Tk] (a cache's {@link GraphBuilder#keyMask}) on top of or instead of the
     * causal rule. The composite form folds query heads into rows, so there a mask needs Tq == 1 (a decoder step) or
     * one query head per kv head.
     */
    public static Tensor apply(
            GraphBuilder g,
            Tensor q,
            Tensor k,
            Tensor v,
            Tensor mask,
            float scale,
            boolean causal,
            Set<Capability> effective,
            WeightStore constants) {
        if (q.rank() != 4 || k.rank() != 4 || v.rank() != 4 || q.dim(1) % k.dim(1) != 0) {
            throw new IllegalArgumentException(
                    "attention wants q [B, H, Tq, D], k and v [B, Hkv, Tk, D] with H % Hkv == 0; got " + q.shape()
                            + ", " + k.shape() + ", " + v.shape());
        }
        if (effective.contains(Capability.FUSED_ATTENTION)) return g.attention(q, k, v, mask, scale, causal);
        long b = q.dim(0), h = q.dim(1), tq = q.dim(2), d = q.dim(3), hkv = k.dim(1), tk = k.dim(2);
        int group = (int) (h / hkv);
        if (mask != null && group > 1 && tq > 1) {
            throw new IllegalArgumentException(
                    "a key mask with grouped kv heads needs one query per step in the composite lowering, got Tq = "
                            + tq);
        }
        Tensor rows = group == 1 ? q : g.reshape(q, b, hkv, group * tq, d);
        Tensor additive = causal ? g.constant(causalMask(constants, group, tq, tk)) : null;
        if (mask != null) additive = additive == null ? mask : g.add(additive, mask);
        Tensor p = g.softmax(g.matmul(rows, k), additive, scale);
        Tensor out = g.matmul(p, g.transpose(v, 2, 3));
        return group == 1 ? out : g.reshape(out, b, h, tq, d);
    }

    /** Row r is query r % tq of its group; it sees keys j <= (r % tq) + (tk − tq). */
    static HostTensor causalMask(WeightStore constants, int group, long tq, long tk) {
        return constants.derived("causal-mask " + group + "x" + tq + "x" + tk, () -> {
            int rows = Math.toIntExact(group * tq), cols = Math.toIntExact(tk);
            float[] m = new float[Math.multiplyExact(rows, cols)];
            for (int r = 0; r < rows; r++) {
                long last = r % tq + (tk - tq);
                for (int j = 0; j < cols; j++) m[r * cols + j] = j > last ? Float.NEGATIVE_INFINITY : 0f;
            }
            return HostTensor.ofFloats(Shape.of(rows, cols), m);
        });
    }
}
