package dev.audioengine.gpu.gemm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.audioengine.api.tensor.DType;
import dev.audioengine.gpu.GpuException;
import dev.audioengine.gpu.runtime.NativeBinder;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * The matmul flow cuBLASLt and hipBLASLt share (hipBLASLt mirrors cuBLASLt entry point for entry
 * point, with its own enum values, given in {@link Constants}): a handle, and per distinct shape a
 * {@link Plan} (descriptors and the algorithm the heuristic picked) made once and kept until close.
 */
public final class LtMatmul implements GpuBlas {
    /** The vendor's enum values and struct size; {@code minAlignmentPrefs} is null where the library has no such preferences. */
    public record Constants(
            int r32f,
            int r16f,
            int r16bf,
            int compute32f,
            int compute32fFastTf32,
            int opN,
            int opT,
            int descTransA,
            int descTransB,
            int layoutBatchCount,
            int layoutStridedBatchOffset,
            int prefMaxWorkspaceBytes,
            int[] minAlignmentPrefs,
            long heuristicResultBytes) {}

    public static final long WORKSPACE_BYTES = 32L << 20;

    private record LtPlan(
            Shape shape, MemorySegment desc, MemorySegment a, MemorySegment b, MemorySegment d, MemorySegment algo)
            implements Plan {}

    private final String product, location, prefix, statusType;
    private final Constants c;
    private final LongSupplier allocWorkspace;
    private final LongConsumer freeWorkspace;
    private final MethodHandle create,
            destroy,
            descCreate,
            descSet,
            descDestroy,
            layoutCreate,
            layoutSet,
            layoutDestroy;
    private final MethodHandle prefCreate, prefSet, prefDestroy, heuristic, matmul;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment handle, alpha, beta, one;
    private final Map<Shape, LtPlan> plans = new HashMap<>();
    private long workspace;

    /**
     * @param prefix        "cublasLt" or "hipblasLt": the entry points are prefix + Create, MatmulDescCreate, ...
     * @param allocWorkspace device memory for the workspace ({@link #WORKSPACE_BYTES}), made when the first plan is
     */
    public LtMatmul(
            String product,
            String location,
            String prefix,
            String statusType,
            Constants c,
            NativeBinder bind,
            LongSupplier allocWorkspace,
            LongConsumer freeWorkspace) {
        this.product = product;
        this.location = location;
        this.prefix = prefix;
        this.statusType = statusType;
        this.c = c;
        this.allocWorkspace = allocWorkspace;
        this.freeWorkspace = freeWorkspace;
        create = bind.bind(prefix + "Create", ADDRESS);
        destroy = bind.bind(prefix + "Destroy", ADDRESS);
        descCreate = bind.bind(prefix + "MatmulDescCreate", ADDRESS, JAVA_INT, JAVA_INT);
        descSet = bind.bind(prefix + "MatmulDescSetAttribute", ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG);
        descDestroy = bind.bind(prefix + "MatmulDescDestroy", ADDRESS);
        layoutCreate = bind.bind(prefix + "MatrixLayoutCreate", ADDRESS, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG);
        layoutSet = bind.bind(prefix + "MatrixLayoutSetAttribute", ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG);
        layoutDestroy = bind.bind(prefix + "MatrixLayoutDestroy", ADDRESS);
        prefCreate = bind.bind(prefix + "MatmulPreferenceCreate", ADDRESS);
        prefSet = bind.bind(prefix + "MatmulPreferenceSetAttribute", ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG);
        prefDestroy = bind.bind(prefix + "MatmulPreferenceDestroy", ADDRESS);
        heuristic = bind.bind(
                prefix + "MatmulAlgoGetHeuristic",
                ADDRESS,
                ADDRESS,
                ADDRESS,
                ADDRESS,
                ADDRESS,
                ADDRESS,
                ADDRESS,
                JAVA_INT,
                ADDRESS,
                ADDRESS);
        matmul = bind.bind(
                prefix + "Matmul",
                ADDRESS,
                ADDRESS,
                ADDRESS,
                JAVA_LONG,
                ADDRESS,
                JAVA_LONG,
                ADDRESS,
                ADDRESS,
                JAVA_LONG,
                ADDRESS,
                JAVA_LONG,
                ADDRESS,
                ADDRESS,
                JAVA_LONG,
                JAVA_LONG,
                ADDRESS);
        MemorySegment h = arena.allocate(ADDRESS);
        try {
            check((int) create.invokeExact(h), prefix + "Create");
        } catch (Throwable t) {
            arena.close();
            throw GpuException.unchecked(t);
        }
        handle = h.get(ADDRESS, 0);
        alpha = arena.allocateFrom(JAVA_FLOAT, 1f);
        beta = arena.allocateFrom(JAVA_FLOAT, 0f);
        one = arena.allocateFrom(JAVA_FLOAT, 1f);
    }

    @Override
    public String describe() {
        return product + " " + location;
    }

    public String location() {
        return location;
    }

    private int dataType(DType t) {
        return switch (t) {
            case F32 -> c.r32f();
            case F16 -> c.r16f();
            case BF16 -> c.r16bf();
            default -> throw new IllegalArgumentException(product + " takes F32, F16 or BF16 matrices, not " + t);
        };
    }

    @Override
    public Plan plan(Shape s) {
        if (plans.containsKey(s)) return plans.get(s);
        ensureWorkspace(); // now, not at run time: allocation is illegal while a stream is being captured
        LtPlan p = makePlan(s);
        plans.put(s, p);
        return p;
    }

    private LtPlan makePlan(Shape s) {
        int abType = dataType(s.ab()), dType = dataType(s.d());
        int transA = s.transA() ? c.opT() : c.opN(), transB = s.transB() ? c.opT() : c.opN();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check(
                    (int) descCreate.invokeExact(out, s.fastF32() ? c.compute32fFastTf32() : c.compute32f(), c.r32f()),
                    prefix + "MatmulDescCreate");
            MemorySegment desc = out.get(ADDRESS, 0);
            check((int) descSet.invokeExact(desc, c.descTransA(), a.allocateFrom(JAVA_INT, transA), 4L), "set TRANSA");
            check((int) descSet.invokeExact(desc, c.descTransB(), a.allocateFrom(JAVA_INT, transB), 4L), "set TRANSB");
            MemorySegment la = layout(
                    a, abType, s.transA() ? s.k() : s.m(), s.transA() ? s.m() : s.k(), s.lda(), s.batch(), s.strideA());
            MemorySegment lb = layout(
                    a, abType, s.transB() ? s.n() : s.k(), s.transB() ? s.k() : s.n(), s.ldb(), s.batch(), s.strideB());
            MemorySegment ld = layout(a, dType, s.m(), s.n(), s.ldd(), s.batch(), s.strideD());
            check((int) prefCreate.invokeExact(out), prefix + "MatmulPreferenceCreate");
            MemorySegment pref = out.get(ADDRESS, 0);
            try {
                check(
                        (int) prefSet.invokeExact(
                                pref, c.prefMaxWorkspaceBytes(), a.allocateFrom(JAVA_LONG, WORKSPACE_BYTES), 8L),
                        "set workspace");
                if (c.minAlignmentPrefs() != null) {
                    int[] align = {s.alignA(), s.alignB(), s.alignD(), s.alignD()};
                    String[] names = {"A", "B", "C", "D"};
                    for (int i = 0; i < 4; i++) {
                        check(
                                (int) prefSet.invokeExact(
                                        pref, c.minAlignmentPrefs()[i], a.allocateFrom(JAVA_INT, align[i]), 4L),
                                "set alignment " + names[i]);
                    }
                }
                MemorySegment result = arena.allocate(c.heuristicResultBytes(), 8);
                MemorySegment count = a.allocate(JAVA_INT);
                int r = (int) heuristic.invokeExact(handle, desc, la, lb, ld, ld, pref, 1, result, count);
                if (r != 0 || count.get(JAVA_INT, 0) == 0) {
                    destroyDescriptors(desc, la, lb, ld);
                    return null;
                }
                return new LtPlan(s, desc, la, lb, ld, result);
            } finally {
                check((int) prefDestroy.invokeExact(pref), prefix + "MatmulPreferenceDestroy");
            }
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    private MemorySegment layout(Arena a, int type, long rows, long cols, long ld, int batch, long stride)
            throws Throwable {
        MemorySegment out = a.allocate(ADDRESS);
        check((int) layoutCreate.invokeExact(out, type, rows, cols, ld), prefix + "MatrixLayoutCreate");
        MemorySegment l = out.get(ADDRESS, 0);
        if (batch > 1) {
            check(
                    (int) layoutSet.invokeExact(l, c.layoutBatchCount(), a.allocateFrom(JAVA_INT, batch), 4L),
                    "set BATCH_COUNT");
            check(
                    (int) layoutSet.invokeExact(l, c.layoutStridedBatchOffset(), a.allocateFrom(JAVA_LONG, stride), 8L),
                    "set STRIDED_BATCH_OFFSET");
        }
        return l;
    }

    @Override
    public void run(Plan plan, long aPtr, long bPtr, long dPtr, MemorySegment stream, boolean accumulate) {
        LtPlan p = (LtPlan) plan;
        MemorySegment betaValue = accumulate ? one : beta;
        try {
            check(
                    (int) matmul.invokeExact(
                            handle,
                            p.desc,
                            alpha,
                            aPtr,
                            p.a,
                            bPtr,
                            p.b,
                            betaValue,
                            dPtr,
                            p.d,
                            dPtr,
                            p.d,
                            p.algo,
                            workspace,
                            WORKSPACE_BYTES,
                            stream),
                    prefix + "Matmul");
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    private void ensureWorkspace() {
        if (workspace == 0) workspace = allocWorkspace.getAsLong();
    }

    private void destroyDescriptors(MemorySegment desc, MemorySegment a, MemorySegment b, MemorySegment d)
            throws Throwable {
        check((int) descDestroy.invokeExact(desc), prefix + "MatmulDescDestroy");
        check((int) layoutDestroy.invokeExact(a), prefix + "MatrixLayoutDestroy");
        check((int) layoutDestroy.invokeExact(b), prefix + "MatrixLayoutDestroy");
        check((int) layoutDestroy.invokeExact(d), prefix + "MatrixLayoutDestroy");
    }

    private void check(int status, String call) {
        if (status != 0)
            throw new IllegalStateException(call + " failed: " + statusType + " " + status + " (" + location + ")");
    }

    @Override
    public void close() {
        try {
            for (LtPlan p : plans.values()) if (p != null) destroyDescriptors(p.desc, p.a, p.b, p.d);
            plans.clear();
            if (workspace != 0) freeWorkspace.accept(workspace);
            workspace = 0;
            check((int) destroy.invokeExact(handle), prefix + "Destroy");
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        } finally {
            arena.close();
        }
    }
}
