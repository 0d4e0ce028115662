package dev.audioengine.backend.cpu.kernels;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * Fused attention, softmax(q·kᵀ·scale + mask [+ causal]) · v, flash-attention style: each work
 * unit is a block of query rows of one (batch, head); it walks the keys in blocks, keeping a
 * running row max, a running denominator and an unnormalized output, so no Tq x Tk matrix exists.
 * Key blocks are converted to F32 once per query block (K transposed so scores vectorize across
 * keys). Grouped queries read k/v head h / (H / Hkv). A row whose every key is masked yields
 * zeros, the reference's convention for softmax over nothing.
 */
final class AttentionKernel implements CpuKernel {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    private static final int QB = 32, KB = 64;

    @Override
    public boolean supports(Tensor node) {
        DType kv = node.input(1).dtype();
        return node.input(0).dtype() == DType.F32 && kv.isFloat() && node.input(2).dtype() == kv
                && (node.inputs().size() < 4 || node.input(3).dtype() == DType.F32);
    }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        Op.Attention op = (Op.Attention) node.op();
        CpuTensor q = in[0], k = in[1], v = in[2], mask = in.length > 3 ? in[3] : null;
        int batch = (int) q.dims()[0], heads = (int) q.dims()[1], tq = (int) q.dims()[2], d = (int) q.dims()[3];
        int kvHeads = (int) k.dims()[1], tk = (int) k.dims()[2];
        int dp = (d + L - 1) / L * L;
        int qBlocks = (tq + QB - 1) / QB, units = batch * heads * qBlocks;
        int threads = ctx.pool().threads();
        Scratch[] scratch = new Scratch[threads];
        for (int i = 0; i < threads; i++) scratch[i] = new Scratch(dp, d);
        Shape sh = new Shape(heads, kvHeads, tq, tk, d, dp, op.scale(), op.causal());
        return () -> {
            int chunks = Math.min(threads, units);
            ctx.pool().parallelFor(chunks, c -> {
                Scratch s = scratch[c];
                for (int u = units * c / chunks, end = units * (c + 1) / chunks; u < end; u++) {
                    int bh = u / qBlocks, qb = u % qBlocks;
                    queryBlock(sh, q, k, v, mask, out, bh / heads, bh % heads, qb * QB, Math.min(QB, tq - qb * QB), s);
                }
            });
        };
    }

    private record Shape(int heads, int kvHeads, int tq, int tk, int d, int dp, float scale, boolean causal) {}

    private static final class Scratch {
        final float[] q, kt, v, s, o, max, sum;

        Scratch(int dp, int d) {
            q = new float[QB * dp];
            kt = new float[d * KB];
            v = new float[KB * dp];
            s = new float[KB];
            o = new float[QB * dp];
            max = new float[QB];
            sum = new float[QB];
        }
    }

    private static void queryBlock(Shape sh, CpuTensor q, CpuTensor k, CpuTensor v, CpuTensor mask, CpuTensor out,
                                   int b, int h, int i0, int rows, Scratch s) {
        int d = sh.d, dp = sh.dp, hk = h / (sh.heads / sh.kvHeads);
        for (int r = 0; r < rows; r++) {
            long qo = q.offset(b, h, i0 + r, 0), qs = q.strides()[3];
            for (int e = 0; e < d; e++) s.q[r * dp + e] = q.getFloat(qo + e * qs) * sh.scale;
        }
        Arrays.fill(s.o, 0, rows * dp, 0f);
        Arrays.fill(s.max, 0, rows, Float.NEGATIVE_INFINITY);
        Arrays.fill(s.sum, 0, rows, 0f);
        int shift = sh.tk - sh.tq; // causal: key j is visible to query i when j <= i + shift
        int keyEnd = sh.causal ? Math.min(sh.tk, i0 + rows + shift) : sh.tk;
        for (int j0 = 0; j0 < keyEnd; j0 += KB) {
            int kb = Math.min(KB, keyEnd - j0);
            loadKeys(k, v, b, hk, j0, kb, d, dp, s);
            for (int r = 0; r < rows; r++) {
                int i = i0 + r;
                int visible = sh.causal ? Math.min(kb, i + shift - j0 + 1) : kb;
                if (visible <= 0) continue;
                scores(s, r, dp, d, visible);
                if (mask != null) {
                    long mo = mask.offset(0, 0, i, j0), ms = mask.strides()[3];
                    for (int j = 0; j < visible; j++) s.s[j] += mask.getFloat(mo + j * ms);
                }
                accumulate(s, r, dp, visible);
            }
        }
        MemorySegment os = out.segment();
        for (int r = 0; r < rows; r++) {
            float inv = s.sum[r] > 0 ? 1f / s.sum[r] : 0f; // every key masked: zeros
            long at = out.base() + (((long) b * sh.heads + h) * sh.tq + i0 + r) * d * 4;
            for (int e = 0; e < d; e++) os.set(CpuTensor.F32, at + e * 4L, s.o[r * dp + e] * inv);
        }
    }

    /** kt[e * KB + j] = k[j0 + j, e]; v rows padded to dp with zeros. */
    private static void loadKeys(CpuTensor k, CpuTensor v, int b, int hk, int j0, int kb, int d, int dp, Scratch s) {
        long ks = k.strides()[3], vs = v.strides()[3];
        for (int j = 0; j < kb; j++) {
            long ko = k.offset(b, hk, j0 + j, 0), vo = v.offset(b, hk, j0 + j, 0);
            for (int e = 0; e < d; e++) {
                s.kt[e * KB + j] = k.getFloat(ko + e * ks);
                s.v[j * dp + e] = v.getFloat(vo + e * vs);
            }
            for (int e = d; e < dp; e++) s.v[j * dp + e] = 0f;
        }
    }

    /** s[j] = q_r · k_j for j < n, vectorized across keys. */
    private static void scores(Scratch s, int r, int dp, int d, int n) {
        float[] q = s.q, kt = s.kt, out = s.s;
        int j = 0;
        for (int upper = S.loopBound(n); j < upper; j += L) {
            FloatVector acc = FloatVector.zero(S);
            for (int e = 0; e < d; e++) acc = FloatVector.fromArray(S, kt, e * KB + j).fma(FloatVector.broadcast(S, q[r * dp + e]), acc);
            acc.intoArray(out, j);
        }
        for (; j < n; j++) {
            float acc = 0;
            for (int e = 0; e < d; e++) acc += q[r * dp + e] * kt[e * KB + j];
            out[j] = acc;
        }
    }

    /** Online softmax step for row r over n scores: rescale the running output and add p·v. */
    private static void accumulate(Scratch s, int r, int dp, int n) {
        float blockMax = Float.NEGATIVE_INFINITY;
        for (int j = 0; j < n; j++) blockMax = Math.max(blockMax, s.s[j]);
        float old = s.max[r], max = Math.max(old, blockMax);
        if (max == Float.NEGATIVE_INFINITY) return; // nothing visible yet
        float alpha = old == Float.NEGATIVE_INFINITY ? 0f : (float) Math.exp(old - max);
        float sum = 0;
        int j = 0;
        FloatVector mv = FloatVector.broadcast(S, max);
        for (int upper = S.loopBound(n); j < upper; j += L) {
            FloatVector p = FloatVector.fromArray(S, s.s, j).sub(mv).lanewise(VectorOperators.EXP);
            sum += p.reduceLanes(VectorOperators.ADD);
            p.intoArray(s.s, j);
        }
        for (; j < n; j++) {
            float p = (float) Math.exp(s.s[j] - max);
            sum += p;
            s.s[j] = p;
        }
        s.max[r] = max;
        s.sum[r] = s.sum[r] * alpha + sum;
        int o = r * dp;
        for (int e = 0; e < dp; e += L) {
            FloatVector acc = FloatVector.fromArray(S, s.o, o + e).mul(alpha);
            for (int jj = 0; jj < n; jj++) acc = FloatVector.fromArray(S, s.v, jj * dp + e).fma(FloatVector.broadcast(S, s.s[jj]), acc);
            acc.intoArray(s.o, o + e);
        }
    }
}
