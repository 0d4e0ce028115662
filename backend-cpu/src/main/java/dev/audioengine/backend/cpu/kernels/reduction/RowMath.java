package dev.audioengine.backend.cpu.kernels.reduction;

import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.FloatMath;
import dev.audioengine.backend.cpu.kernels.Rows;
import dev.audioengine.backend.cpu.kernels.linear.LaneSum;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Vector loops over one contiguous span of F32 values in a segment: the reductions and in-place
 * updates that norms, softmax and reductions share. Spans are given as (segment, byte offset, n).
 * <p>
 * Sums add their lanes in {@link LaneSum}'s fixed order and softmax's exponential is {@link FloatMath#exp} written
 * out: {@code reduceLanes(ADD)} and {@code lanewise(EXP)} give other bits before C2 has compiled a loop than after,
 * so a cold process and a warm one disagreed (CrossTierDeterminismTest). The vector is stored and the array summed:
 * no vector crosses a call.
 */
final class RowMath {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    private RowMath() {}

    private static FloatVector load(MemorySegment seg, long byteOff, int i) {
        return FloatVector.fromMemorySegment(S, seg, byteOff + 4L * i, NATIVE);
    }

    private static float get(MemorySegment seg, long byteOff, int i) {
        return seg.get(CpuTensor.F32, byteOff + 4L * i);
    }

    private static void set(MemorySegment seg, long byteOff, int i, float v) {
        seg.set(CpuTensor.F32, byteOff + 4L * i, v);
    }

    static float sum(MemorySegment seg, long off, int n) {
        FloatVector acc = FloatVector.zero(S);
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) acc = acc.add(load(seg, off, i));
        float[] lanes = new float[S.length()];
        acc.intoArray(lanes, 0);
        float s = LaneSum.of(lanes, 0);
        for (; i < n; i++) s += get(seg, off, i);
        return s;
    }

    /**
     * Mean and variance by the corrected two-pass method: m = Σx/n in float, then
     * d = x − m (exact when x is near m), c = Σd/n recovers what rounding m lost, and
     * var = Σd²/n − c². Normalizing with ((x − m) − c) keeps rows whose values are close
     * together (small groups, large offsets) as accurate as their float inputs allow.
     * Writes {m, c, var} into {@code stats}.
     */
    static void meanAndVariance(MemorySegment seg, long off, int n, float[] stats) {
        float m = sum(seg, off, n) / n;
        float c = sumDeviation(seg, off, n, m) / n;
        float var = sumSquaredDeviation(seg, off, n, m) / n - c * c;
        stats[0] = m;
        stats[1] = c;
        stats[2] = Math.max(var, 0f);
    }

    /** Σ (x − center). */
    static float sumDeviation(MemorySegment seg, long off, int n, float center) {
        FloatVector acc = FloatVector.zero(S), c = FloatVector.broadcast(S, center);
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length())
            acc = acc.add(load(seg, off, i).sub(c));
        float[] lanes = new float[S.length()];
        acc.intoArray(lanes, 0);
        float s = LaneSum.of(lanes, 0);
        for (; i < n; i++) s += get(seg, off, i) - center;
        return s;
    }

    /** Σ (x − center)². */
    static float sumSquaredDeviation(MemorySegment seg, long off, int n, float center) {
        FloatVector acc = FloatVector.zero(S), c = FloatVector.broadcast(S, center);
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector d = load(seg, off, i).sub(c);
            acc = d.fma(d, acc);
        }
        float[] lanes = new float[S.length()];
        acc.intoArray(lanes, 0);
        float s = LaneSum.of(lanes, 0);
        for (; i < n; i++) {
            float d = get(seg, off, i) - center;
            s += d * d;
        }
        return s;
    }

    /** Largest value; NaN if any value is NaN. */
    static float max(MemorySegment seg, long off, int n) {
        FloatVector acc = FloatVector.broadcast(S, Float.NEGATIVE_INFINITY);
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length())
            acc = acc.lanewise(VectorOperators.MAX, load(seg, off, i));
        float m = acc.reduceLanes(VectorOperators.MAX);
        for (; i < n; i++) m = Math.max(m, get(seg, off, i));
        return m;
    }

    /** In place x ← ((x − center) − correction) · scale · gamma[i] + beta[i]; gamma and beta are optional F32 [n] tensors. */
    static void normalize(
            MemorySegment seg,
            long off,
            int n,
            float center,
            float correction,
            float scale,
            CpuTensor gamma,
            CpuTensor beta) {
        boolean vectorParams = (gamma == null || Rows.unitStride(gamma)) && (beta == null || Rows.unitStride(beta));
        int i = 0;
        if (vectorParams) {
            FloatVector c = FloatVector.broadcast(S, center),
                    k = FloatVector.broadcast(S, scale),
                    cc = FloatVector.broadcast(S, correction);
            for (int upper = S.loopBound(n); i < upper; i += S.length()) {
                FloatVector y = load(seg, off, i).sub(c).sub(cc).mul(k);
                if (gamma != null) y = y.mul(load(gamma.segment(), gamma.base(), i));
                if (beta != null) y = y.add(load(beta.segment(), beta.base(), i));
                y.intoMemorySegment(seg, off + 4L * i, NATIVE);
            }
        }
        for (; i < n; i++) {
            float y = (get(seg, off, i) - center - correction) * scale;
            if (gamma != null) y *= gamma.getFloat(gamma.offset(0, 0, 0, i));
            if (beta != null) y += beta.getFloat(beta.offset(0, 0, 0, i));
            set(seg, off, i, y);
        }
    }

    /** In place x ← ((x − center) − correction) · scale + shift. */
    static void affine(MemorySegment seg, long off, int n, float center, float correction, float scale, float shift) {
        FloatVector c = FloatVector.broadcast(S, center), cc = FloatVector.broadcast(S, correction);
        FloatVector k = FloatVector.broadcast(S, scale), b = FloatVector.broadcast(S, shift);
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            load(seg, off, i).sub(c).sub(cc).fma(k, b).intoMemorySegment(seg, off + 4L * i, NATIVE);
        }
        for (; i < n; i++) set(seg, off, i, (get(seg, off, i) - center - correction) * scale + shift);
    }

    /** In place x ← exp(x − max); returns the sum of the new values. */
    static float expShiftSum(MemorySegment seg, long off, int n, float max) {
        FloatVector m = FloatVector.broadcast(S, max), acc = FloatVector.zero(S);
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            // e^(x − max) as FloatMath.exp, written out (the Vector API's EXP differs between JIT tiers)
            FloatVector xc = load(seg, off, i).sub(m).max(FloatMath.EXP_LO).min(FloatMath.EXP_HI);
            FloatVector t = xc.fma(FloatMath.LOG2E, FloatMath.ROUND);
            FloatVector k = t.sub(FloatMath.ROUND);
            FloatVector r = k.fma(FloatVector.broadcast(S, -FloatMath.LN2_HI), xc);
            r = k.fma(FloatVector.broadcast(S, -FloatMath.LN2_LO), r);
            FloatVector p = r.fma(FloatMath.E7, FloatMath.E6);
            p = p.fma(r, FloatVector.broadcast(S, FloatMath.E5));
            p = p.fma(r, FloatVector.broadcast(S, FloatMath.E4));
            p = p.fma(r, FloatVector.broadcast(S, FloatMath.E3));
            p = p.fma(r, FloatVector.broadcast(S, FloatMath.E2));
            p = p.fma(r, FloatVector.broadcast(S, 1f));
            p = p.fma(r, FloatVector.broadcast(S, 1f));
            IntVector en = ((IntVector) t.reinterpretAsInts()).sub(FloatMath.ROUND_BITS);
            IntVector n1 = en.lanewise(VectorOperators.ASHR, 1), n2 = en.sub(n1);
            FloatVector e = p.mul(n1.add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats())
                    .mul(n2.add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats());
            e.intoMemorySegment(seg, off + 4L * i, NATIVE);
            acc = acc.add(e);
        }
        float[] lanes = new float[S.length()];
        acc.intoArray(lanes, 0);
        float s = LaneSum.of(lanes, 0);
        for (; i < n; i++) {
            float e = FloatMath.exp(get(seg, off, i) - max);
            set(seg, off, i, e);
            s += e;
        }
        return s;
    }

    /** In place x ← x · k. */
    static void scale(MemorySegment seg, long off, int n, float k) {
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            load(seg, off, i).mul(k).intoMemorySegment(seg, off + 4L * i, NATIVE);
        }
        for (; i < n; i++) set(seg, off, i, get(seg, off, i) * k);
    }

    static void fill(MemorySegment seg, long off, int n, float v) {
        for (int i = 0; i < n; i++) set(seg, off, i, v);
    }

    /** In place x ← x · k + m[i], m read with element stride {@code ms} (0 broadcasts one value). */
    static void scaleAdd(MemorySegment seg, long off, int n, float k, MemorySegment mSeg, long mOff, long ms) {
        int i = 0;
        if (ms == 1) {
            FloatVector vk = FloatVector.broadcast(S, k);
            for (int upper = S.loopBound(n); i < upper; i += S.length()) {
                load(seg, off, i).fma(vk, load(mSeg, mOff, i)).intoMemorySegment(seg, off + 4L * i, NATIVE);
            }
        }
        for (; i < n; i++) set(seg, off, i, get(seg, off, i) * k + mSeg.get(CpuTensor.F32, mOff + 4L * i * ms));
    }

    /** In place acc[i] ← acc[i] + x[i] (or max), x read with element stride {@code xs}. */
    static void accumulate(MemorySegment seg, long off, int n, MemorySegment xSeg, long xOff, long xs, boolean max) {
        int i = 0;
        if (xs == 1) {
            for (int upper = S.loopBound(n); i < upper; i += S.length()) {
                FloatVector a = load(seg, off, i), x = load(xSeg, xOff, i);
                (max ? a.lanewise(VectorOperators.MAX, x) : a.add(x)).intoMemorySegment(seg, off + 4L * i, NATIVE);
            }
        }
        for (; i < n; i++) {
            float a = get(seg, off, i), x = xSeg.get(CpuTensor.F32, xOff + 4L * i * xs);
            set(seg, off, i, max ? Math.max(a, x) : a + x);
        }
    }
}
