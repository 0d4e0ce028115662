package dev.audioengine.backend.cpu.kernels.sequence;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.backend.cpu.kernels.CpuKernel;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;
import dev.audioengine.backend.cpu.kernels.Rows;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * Rotary embedding on x [B, H, T, D]. Each run first fills cos/sin tables [T, dims/2] from the
 * positions (angles in double: pos · base^(−2i/dims)), then rotates every row's pairs, NORMAL
 * (2i, 2i+1) or NEOX (i, i + dims/2), in the output; values past dims are copied.
 * <p>
 * The rotation runs in vector lanes (the scalar loop through segment accessors was 5 % of
 * Moonshine's encoder): NEOX pairs are two vectors half a rotation apart; NORMAL pairs are
 * neighbours, so x·cos + swap(x)·sin with the tables widened per lane (cos, cos) and
 * (−sin, sin) and swap exchanging each pair. Both give the scalar formulas' bits: x_a·c − x_b·s
 * is x_a·c + x_b·(−s) exactly, and the adds only change operand order. Pairs past the last
 * whole vector take the scalar loop.
 */
public final class RopeKernel implements CpuKernel {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    private static final VectorShuffle<Float> SWAP_PAIRS = VectorShuffle.fromOp(S, i -> i ^ 1);
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    @Override
    public boolean supports(Tensor node) {
        return true;
    }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        Op.Rope op = (Op.Rope) node.op();
        CpuTensor x = in[0], positions = in[1];
        int t = (int) out.dims()[2], d = (int) out.dims()[3], half = op.dims() / 2;
        boolean neox = op.mode() == Op.RopeMode.NEOX;
        double[] invFreq = new double[half];
        for (int i = 0; i < half; i++) invFreq[i] = Math.pow(op.base(), -2.0 * i / op.dims());
        float[] cos = new float[t * half], sin = new float[t * half]; // refilled every run
        // NORMAL's tables per lane: (cos_i, cos_i) and (-sin_i, sin_i) for each pair
        float[] cosWide = neox ? null : new float[t * 2 * half], sinWide = neox ? null : new float[t * 2 * half];
        int vectorPairs = neox ? S.loopBound(half) : S.loopBound(2 * half) / 2; // pairs the vector loop rotates
        int rows = Rows.count(out);
        MemorySegment dst = out.segment();
        return () -> {
            ctx.pool().parallelRanges(t, (from, to) -> {
                for (int ti = from; ti < to; ti++) {
                    double pos = positions.getInt(positions.offset(0, 0, 0, ti));
                    for (int i = 0; i < half; i++) {
                        double theta = pos * invFreq[i];
                        float c = (float) Math.cos(theta), sn = (float) Math.sin(theta);
                        cos[ti * half + i] = c;
                        sin[ti * half + i] = sn;
                        if (!neox) {
                            int w = (ti * half + i) * 2;
                            cosWide[w] = c;
                            cosWide[w + 1] = c;
                            sinWide[w] = -sn;
                            sinWide[w + 1] = sn;
                        }
                    }
                }
            });
            ctx.pool().parallelRanges(rows, (from, to) -> {
                for (int r = from; r < to; r++)
                    rotate(
                            x,
                            r,
                            d,
                            dst,
                            out.base() + 4L * r * d,
                            (r % t) * half,
                            neox,
                            half,
                            vectorPairs,
                            cos,
                            sin,
                            cosWide,
                            sinWide);
            });
        };
    }

    /**
     * One row: gathered into place, then rotated. A method of its own rather than the loop's body: a one-shot job runs
     * without on-stack replacement (the launcher's -XX:-UseOnStackReplacement), so a loop runs to its end in the tier
     * it started in, and the first runs of the encoder's query and key rotations (thousands of rows each) ran whole in
     * the interpreter's form of the Vector API, about 5 % of a cold transcription; called per row, this is compiled
     * after a few rows.
     */
    private static void rotate(
            CpuTensor x,
            int r,
            int d,
            MemorySegment dst,
            long o,
            int table,
            boolean neox,
            int half,
            int vectorPairs,
            float[] cos,
            float[] sin,
            float[] cosWide,
            float[] sinWide) {
        Rows.gather(x, Rows.offset(x, r), d, dst, o);
        if (neox) {
            for (int i = 0; i < vectorPairs; i += L) {
                FloatVector xa = FloatVector.fromMemorySegment(S, dst, o + 4L * i, NATIVE);
                FloatVector xb = FloatVector.fromMemorySegment(S, dst, o + 4L * (i + half), NATIVE);
                FloatVector c = FloatVector.fromArray(S, cos, table + i), sn = FloatVector.fromArray(S, sin, table + i);
                xa.mul(c).sub(xb.mul(sn)).intoMemorySegment(dst, o + 4L * i, NATIVE);
                xa.mul(sn).add(xb.mul(c)).intoMemorySegment(dst, o + 4L * (i + half), NATIVE);
            }
        } else {
            for (int i = 0; i < 2 * vectorPairs; i += L) {
                FloatVector xv = FloatVector.fromMemorySegment(S, dst, o + 4L * i, NATIVE);
                FloatVector c = FloatVector.fromArray(S, cosWide, 2 * table + i),
                        sn = FloatVector.fromArray(S, sinWide, 2 * table + i);
                xv.mul(c).add(xv.rearrange(SWAP_PAIRS).mul(sn)).intoMemorySegment(dst, o + 4L * i, NATIVE);
            }
        }
        for (int i = vectorPairs; i < half; i++) {
            long a = o + 4L * (neox ? i : 2 * i), b = o + 4L * (neox ? i + half : 2 * i + 1);
            float xa = dst.get(CpuTensor.F32, a), xb = dst.get(CpuTensor.F32, b);
            float c = cos[table + i], s = sin[table + i];
            dst.set(CpuTensor.F32, a, xa * c - xb * s);
            dst.set(CpuTensor.F32, b, xa * s + xb * c);
        }
    }
}
