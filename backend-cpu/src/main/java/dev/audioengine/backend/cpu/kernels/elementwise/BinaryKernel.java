package dev.audioengine.backend.cpu.kernels.elementwise;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.backend.cpu.kernels.CpuKernel;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * add, sub, mul, div, pow, max with NumPy broadcasting. Rows along the last axis are the unit of
 * work: a vector loop when both inputs are unit-stride there (or b is a broadcast scalar),
 * a strided scalar loop otherwise.
 */
public final class BinaryKernel implements CpuKernel {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;

    @Override
    public boolean supports(Tensor node) {
        return node.inputs().stream().allMatch(t -> t.dtype() == DType.F32);
    }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        Op.BinaryKind kind = ((Op.Binary) node.op()).kind();
        CpuTensor a = broadcastTo(in[0], out), b = broadcastTo(in[1], out);
        long[] d = out.dims();
        // A last axis of one element (the real part of complex pairs: Whisper's log-mel squares 603,000 of them) made
        // every element a row of its own; such rows run along the axis before it instead, strided. The loop over rows
        // is a lambda called once per op and thread, which one-shot jobs run in the interpreter (no OSR): it now turns
        // hundreds of times, not hundreds of thousands, and the row method it calls is compiled after a few.
        boolean along2 = d[3] == 1 && d[2] > 1 && out.strides()[2] == 1;
        long inner = along2 ? 1 : d[2];
        int rows = Math.toIntExact(d[0] * d[1] * inner);
        int n = (int) (along2 ? d[2] : d[3]);
        int axis = along2 ? 2 : 3;
        long sa = a.strides()[axis], sb = b.strides()[axis];
        return () -> ctx.pool().parallelRanges(rows, (from, to) -> {
            for (int r = from; r < to; r++) {
                long i0 = r / (d[1] * inner), i1 = (r / inner) % d[1], i2 = r % inner;
                row(kind, a, a.offset(i0, i1, i2, 0), sa, b, b.offset(i0, i1, i2, 0), sb, out, (long) r * n, n);
            }
        });
    }

    /** The input's strides with broadcast axes set to 0, in the output's rank-4 index space. */
    public static CpuTensor broadcastTo(CpuTensor t, CpuTensor out) {
        long[] s = t.strides().clone();
        for (int i = 0; i < 4; i++) if (t.dims()[i] == 1 && out.dims()[i] != 1) s[i] = 0;
        return new CpuTensor(t.segment(), t.base(), t.dtype(), out.rank(), out.dims(), s);
    }

    /** One row of {@code n} outputs; {@code sa} and {@code sb} are the inputs' element strides along it. */
    private static void row(
            Op.BinaryKind kind,
            CpuTensor a,
            long ao,
            long sa,
            CpuTensor b,
            long bo,
            long sb,
            CpuTensor out,
            long oo,
            int n) {
        MemorySegment as = a.segment(), bs = b.segment(), os = out.segment();
        long ab = a.base() + ao * 4, bb = b.base() + bo * 4, ob = out.base() + oo * 4;
        int i = 0;
        if (sa == 1 && (sb == 1 || sb == 0) && kind != Op.BinaryKind.POW) {
            // one loop per kind (and per operand form): a vector loop shared by several kinds through a switch was not
            // intrinsified by C2 and ran the Vector API's scalar fallback, a third of Kokoro's time
            boolean scalar = sb == 0;
            i = switch (kind) {
                case ADD ->
                    scalar ? addScalar(as, ab, bs.get(CpuTensor.F32, bb), os, ob, n) : add(as, ab, bs, bb, os, ob, n);
                case SUB ->
                    scalar ? subScalar(as, ab, bs.get(CpuTensor.F32, bb), os, ob, n) : sub(as, ab, bs, bb, os, ob, n);
                case MUL ->
                    scalar ? mulScalar(as, ab, bs.get(CpuTensor.F32, bb), os, ob, n) : mul(as, ab, bs, bb, os, ob, n);
                case DIV ->
                    scalar ? divScalar(as, ab, bs.get(CpuTensor.F32, bb), os, ob, n) : div(as, ab, bs, bb, os, ob, n);
                case MAX ->
                    scalar ? maxScalar(as, ab, bs.get(CpuTensor.F32, bb), os, ob, n) : max(as, ab, bs, bb, os, ob, n);
                case POW -> 0;
            };
        }
        for (; i < n; i++) {
            float x = as.get(CpuTensor.F32, ab + i * sa * 4), y = bs.get(CpuTensor.F32, bb + i * sb * 4);
            float r = switch (kind) {
                case ADD -> x + y;
                case SUB -> x - y;
                case MUL -> x * y;
                case DIV -> x / y;
                case POW -> (float) Math.pow(x, y);
                case MAX -> Math.max(x, y);
            };
            os.set(CpuTensor.F32, ob + i * 4L, r);
        }
    }

    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    // Each returns how many leading elements it wrote (a whole number of vectors); the caller finishes the tail.

    private static int add(MemorySegment as, long ab, MemorySegment bs, long bb, MemorySegment os, long ob, int n) {
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector.fromMemorySegment(S, as, ab + i * 4L, NATIVE)
                    .add(FloatVector.fromMemorySegment(S, bs, bb + i * 4L, NATIVE))
                    .intoMemorySegment(os, ob + i * 4L, NATIVE);
        }
        return i;
    }

    private static int sub(MemorySegment as, long ab, MemorySegment bs, long bb, MemorySegment os, long ob, int n) {
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector.fromMemorySegment(S, as, ab + i * 4L, NATIVE)
                    .sub(FloatVector.fromMemorySegment(S, bs, bb + i * 4L, NATIVE))
                    .intoMemorySegment(os, ob + i * 4L, NATIVE);
        }
        return i;
    }

    private static int mul(MemorySegment as, long ab, MemorySegment bs, long bb, MemorySegment os, long ob, int n) {
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector.fromMemorySegment(S, as, ab + i * 4L, NATIVE)
                    .mul(FloatVector.fromMemorySegment(S, bs, bb + i * 4L, NATIVE))
                    .intoMemorySegment(os, ob + i * 4L, NATIVE);
        }
        return i;
    }

    private static int div(MemorySegment as, long ab, MemorySegment bs, long bb, MemorySegment os, long ob, int n) {
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector.fromMemorySegment(S, as, ab + i * 4L, NATIVE)
                    .div(FloatVector.fromMemorySegment(S, bs, bb + i * 4L, NATIVE))
                    .intoMemorySegment(os, ob + i * 4L, NATIVE);
        }
        return i;
    }

    // Vector MAX is Math.max lane by lane: NaN if either is NaN, as the scalar tail
    private static int max(MemorySegment as, long ab, MemorySegment bs, long bb, MemorySegment os, long ob, int n) {
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector.fromMemorySegment(S, as, ab + i * 4L, NATIVE)
                    .max(FloatVector.fromMemorySegment(S, bs, bb + i * 4L, NATIVE))
                    .intoMemorySegment(os, ob + i * 4L, NATIVE);
        }
        return i;
    }

    private static int maxScalar(MemorySegment as, long ab, float y, MemorySegment os, long ob, int n) {
        FloatVector vb = FloatVector.broadcast(S, y);
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector.fromMemorySegment(S, as, ab + i * 4L, NATIVE)
                    .max(vb)
                    .intoMemorySegment(os, ob + i * 4L, NATIVE);
        }
        return i;
    }

    private static int addScalar(MemorySegment as, long ab, float y, MemorySegment os, long ob, int n) {
        FloatVector vb = FloatVector.broadcast(S, y);
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector.fromMemorySegment(S, as, ab + i * 4L, NATIVE)
                    .add(vb)
                    .intoMemorySegment(os, ob + i * 4L, NATIVE);
        }
        return i;
    }

    private static int subScalar(MemorySegment as, long ab, float y, MemorySegment os, long ob, int n) {
        FloatVector vb = FloatVector.broadcast(S, y);
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector.fromMemorySegment(S, as, ab + i * 4L, NATIVE)
                    .sub(vb)
                    .intoMemorySegment(os, ob + i * 4L, NATIVE);
        }
        return i;
    }

    private static int mulScalar(MemorySegment as, long ab, float y, MemorySegment os, long ob, int n) {
        FloatVector vb = FloatVector.broadcast(S, y);
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector.fromMemorySegment(S, as, ab + i * 4L, NATIVE)
                    .mul(vb)
                    .intoMemorySegment(os, ob + i * 4L, NATIVE);
        }
        return i;
    }

    private static int divScalar(MemorySegment as, long ab, float y, MemorySegment os, long ob, int n) {
        FloatVector vb = FloatVector.broadcast(S, y);
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector.fromMemorySegment(S, as, ab + i * 4L, NATIVE)
                    .div(vb)
                    .intoMemorySegment(os, ob + i * 4L, NATIVE);
        }
        return i;
    }
}
