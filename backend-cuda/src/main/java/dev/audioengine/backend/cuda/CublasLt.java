package dev.audioengine.backend.cuda;

import dev.audioengine.api.spi.NativeLibrary;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * cuBLASLt (libcublasLt): column-major GEMM D = op(A)·op(B) with F32 accumulation for F32 (TF32
 * optional), F16 and BF16 inputs, strided batches. Each distinct shape gets a {@link Plan} (the
 * descriptors and the algorithm the heuristic picked) made once and kept until {@link #close()}:
 * the C++ engines query the heuristic per call, this one per shape.
 */
final class CublasLt implements AutoCloseable {
    static final List<String> SONAMES = List.of("libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so");
    static final List<Path> FOLDERS = Nvrtc.FOLDERS;

    // library_types.h cudaDataType_t
    static final int CUDA_R_32F = 0, CUDA_R_16F = 2, CUDA_R_16BF = 14;
    // cublasComputeType_t
    static final int COMPUTE_32F = 68, COMPUTE_32F_FAST_TF32 = 77;
    // cublasOperation_t
    static final int OP_N = 0, OP_T = 1;
    // cublasLtMatmulDescAttributes_t
    static final int DESC_TRANSA = 3, DESC_TRANSB = 4;
    // cublasLtMatrixLayoutAttribute_t
    static final int LAYOUT_BATCH_COUNT = 5, LAYOUT_STRIDED_BATCH_OFFSET = 6;
    // cublasLtMatmulPreferenceAttributes_t
    static final int PREF_MAX_WORKSPACE_BYTES = 1, PREF_MIN_ALIGNMENT_A = 5, PREF_MIN_ALIGNMENT_B = 6,
            PREF_MIN_ALIGNMENT_C = 7, PREF_MIN_ALIGNMENT_D = 8;

    static final long WORKSPACE_BYTES = 32L << 20;

    /** cublasLtMatmulHeuristicResult_t: the 64-byte algo, workspaceSize, state, wavesCount, int reserved[4]. */
    static final StructLayout HEURISTIC_RESULT = MemoryLayout.structLayout(
            MemoryLayout.sequenceLayout(8, JAVA_LONG).withName("algo"),
            JAVA_LONG.withName("workspaceSize"),
            JAVA_INT.withName("state"),
            JAVA_FLOAT.withName("wavesCount"),
            MemoryLayout.sequenceLayout(4, JAVA_INT).withName("reserved"));

    /** Everything that decides descriptors and algorithm. Dimensions are cuBLASLt's (column-major). */
    record Shape(int abType, int dType, int compute, int transA, int transB, long m, long n, long k, long lda, long ldb, long ldd,
                 int batch, long strideA, long strideB, long strideD, int alignA, int alignB, int alignD) {}

    /** A shape's descriptors and chosen algorithm; owned by the CublasLt that made it. */
    static final class Plan {
        final Shape shape;
        final MemorySegment desc, a, b, d, algo;

        Plan(Shape shape, MemorySegment desc, MemorySegment a, MemorySegment b, MemorySegment d, MemorySegment algo) {
            this.shape = shape;
            this.desc = desc;
            this.a = a;
            this.b = b;
            this.d = d;
            this.algo = algo;
        }
    }

    private final String location;
    private final DriverApi api;
    private final MethodHandle create, destroy, descCreate, descSet, descDestroy, layoutCreate, layoutSet, layoutDestroy;
    private final MethodHandle prefCreate, prefSet, prefDestroy, heuristic, matmul;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment handle, alpha, beta, one;
    private final Map<Shape, Plan> plans = new HashMap<>();
    private long workspace;

    private CublasLt(SymbolLookup lib, String location, DriverApi api) {
        this.location = location;
        this.api = api;
        create = Downcalls.bind(lib, location, "cublasLtCreate", ADDRESS);
        destroy = Downcalls.bind(lib, location, "cublasLtDestroy", ADDRESS);
        descCreate = Downcalls.bind(lib, location, "cublasLtMatmulDescCreate", ADDRESS, JAVA_INT, JAVA_INT);
        descSet = Downcalls.bind(lib, location, "cublasLtMatmulDescSetAttribute", ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG);
        descDestroy = Downcalls.bind(lib, location, "cublasLtMatmulDescDestroy", ADDRESS);
        layoutCreate = Downcalls.bind(lib, location, "cublasLtMatrixLayoutCreate", ADDRESS, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG);
        layoutSet = Downcalls.bind(lib, location, "cublasLtMatrixLayoutSetAttribute", ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG);
        layoutDestroy = Downcalls.bind(lib, location, "cublasLtMatrixLayoutDestroy", ADDRESS);
        prefCreate = Downcalls.bind(lib, location, "cublasLtMatmulPreferenceCreate", ADDRESS);
        prefSet = Downcalls.bind(lib, location, "cublasLtMatmulPreferenceSetAttribute", ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG);
        prefDestroy = Downcalls.bind(lib, location, "cublasLtMatmulPreferenceDestroy", ADDRESS);
        heuristic = Downcalls.bind(lib, location, "cublasLtMatmulAlgoGetHeuristic", ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS,
                ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);
        matmul = Downcalls.bind(lib, location, "cublasLtMatmul", ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS,
                ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS);
        MemorySegment h = arena.allocate(ADDRESS);
        try {
            check((int) create.invokeExact(h), "cublasLtCreate");
        } catch (Throwable t) { throw Downcalls.rethrow(t); }
        handle = h.get(ADDRESS, 0);
        alpha = arena.allocateFrom(JAVA_FLOAT, 1f);
        beta = arena.allocateFrom(JAVA_FLOAT, 0f);
        one = arena.allocateFrom(JAVA_FLOAT, 1f);
    }

    /** Loads libcublasLt and creates a handle; throws IllegalStateException listing every name and folder tried. */
    static CublasLt load(DriverApi api) {
        NativeLibrary lib = NativeLibrary.find(SONAMES, FOLDERS, "cublasLtCreate");
        if (!lib.found()) {
            throw new IllegalStateException("cuBLASLt not found (" + lib.searchReport() + "); install the CUDA toolkit's"
                    + " libcublas (libcublasLt) or put its folder on LD_LIBRARY_PATH");
        }
        return new CublasLt(lib.symbols(), lib.location(), api);
    }

    String location() { return location; }

    /** The plan for {@code s}, made on first use; null when the heuristic offers no algorithm for it. */
    Plan plan(Shape s) {
        if (plans.containsKey(s)) return plans.get(s);
        ensureWorkspace(); // now, not at run time: allocation is illegal while a stream is being captured
        Plan p = makePlan(s);
        plans.put(s, p);
        return p;
    }

    private Plan makePlan(Shape s) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check((int) descCreate.invokeExact(out, s.compute(), CUDA_R_32F), "cublasLtMatmulDescCreate");
            MemorySegment desc = out.get(ADDRESS, 0);
            check((int) descSet.invokeExact(desc, DESC_TRANSA, a.allocateFrom(JAVA_INT, s.transA()), 4L), "set TRANSA");
            check((int) descSet.invokeExact(desc, DESC_TRANSB, a.allocateFrom(JAVA_INT, s.transB()), 4L), "set TRANSB");
            MemorySegment la = layout(a, s.abType(), s.transA() == OP_N ? s.m() : s.k(), s.transA() == OP_N ? s.k() : s.m(), s.lda(), s.batch(), s.strideA());
            MemorySegment lb = layout(a, s.abType(), s.transB() == OP_N ? s.k() : s.n(), s.transB() == OP_N ? s.n() : s.k(), s.ldb(), s.batch(), s.strideB());
            MemorySegment ld = layout(a, s.dType(), s.m(), s.n(), s.ldd(), s.batch(), s.strideD());
            check((int) prefCreate.invokeExact(out), "cublasLtMatmulPreferenceCreate");
            MemorySegment pref = out.get(ADDRESS, 0);
            try {
                check((int) prefSet.invokeExact(pref, PREF_MAX_WORKSPACE_BYTES, a.allocateFrom(JAVA_LONG, WORKSPACE_BYTES), 8L), "set workspace");
                check((int) prefSet.invokeExact(pref, PREF_MIN_ALIGNMENT_A, a.allocateFrom(JAVA_INT, s.alignA()), 4L), "set alignment A");
                check((int) prefSet.invokeExact(pref, PREF_MIN_ALIGNMENT_B, a.allocateFrom(JAVA_INT, s.alignB()), 4L), "set alignment B");
                check((int) prefSet.invokeExact(pref, PREF_MIN_ALIGNMENT_C, a.allocateFrom(JAVA_INT, s.alignD()), 4L), "set alignment C");
                check((int) prefSet.invokeExact(pref, PREF_MIN_ALIGNMENT_D, a.allocateFrom(JAVA_INT, s.alignD()), 4L), "set alignment D");
                MemorySegment result = arena.allocate(HEURISTIC_RESULT);
                MemorySegment count = a.allocate(JAVA_INT);
                int r = (int) heuristic.invokeExact(handle, desc, la, lb, ld, ld, pref, 1, result, count);
                if (r != 0 || count.get(JAVA_INT, 0) == 0) {
                    destroyDescriptors(desc, la, lb, ld);
                    return null;
                }
                return new Plan(s, desc, la, lb, ld, result);
            } finally {
                check((int) prefDestroy.invokeExact(pref), "cublasLtMatmulPreferenceDestroy");
            }
        } catch (Throwable t) { throw Downcalls.rethrow(t); }
    }

    private MemorySegment layout(Arena a, int type, long rows, long cols, long ld, int batch, long stride) throws Throwable {
        MemorySegment out = a.allocate(ADDRESS);
        check((int) layoutCreate.invokeExact(out, type, rows, cols, ld), "cublasLtMatrixLayoutCreate");
        MemorySegment l = out.get(ADDRESS, 0);
        if (batch > 1) {
            check((int) layoutSet.invokeExact(l, LAYOUT_BATCH_COUNT, a.allocateFrom(JAVA_INT, batch), 4L), "set BATCH_COUNT");
            check((int) layoutSet.invokeExact(l, LAYOUT_STRIDED_BATCH_OFFSET, a.allocateFrom(JAVA_LONG, stride), 8L), "set STRIDED_BATCH_OFFSET");
        }
        return l;
    }

    /** Enqueues D = op(A)·op(B) on {@code stream}. */
    void run(Plan p, long aPtr, long bPtr, long dPtr, MemorySegment stream) { run(p, aPtr, bPtr, dPtr, stream, false); }

    /** Enqueues D = op(A)·op(B), or D += op(A)·op(B) when {@code accumulate}. */
    void run(Plan p, long aPtr, long bPtr, long dPtr, MemorySegment stream, boolean accumulate) {
        MemorySegment betaValue = accumulate ? one : beta;
        try {
            check((int) matmul.invokeExact(handle, p.desc, alpha, aPtr, p.a, bPtr, p.b, betaValue, dPtr, p.d, dPtr, p.d, p.algo,
                    workspace, WORKSPACE_BYTES, stream), "cublasLtMatmul");
        } catch (Throwable t) { throw Downcalls.rethrow(t); }
    }

    private void ensureWorkspace() {
        if (workspace != 0) return;
        long[] out = new long[1];
        int r = api.memAlloc(WORKSPACE_BYTES, out);
        api.driver().check(r, "cuMemAlloc_v2 (cuBLASLt workspace, " + WORKSPACE_BYTES + " bytes)");
        workspace = out[0];
    }

    private void destroyDescriptors(MemorySegment desc, MemorySegment a, MemorySegment b, MemorySegment d) throws Throwable {
        check((int) descDestroy.invokeExact(desc), "cublasLtMatmulDescDestroy");
        check((int) layoutDestroy.invokeExact(a), "cublasLtMatrixLayoutDestroy");
        check((int) layoutDestroy.invokeExact(b), "cublasLtMatrixLayoutDestroy");
        check((int) layoutDestroy.invokeExact(d), "cublasLtMatrixLayoutDestroy");
    }

    private void check(int status, String call) {
        if (status != 0) throw new IllegalStateException(call + " failed: cublasStatus_t " + status + " (" + location + ")");
    }

    /** Alignment in bytes (a power of two up to 256) that a device address is known to have. */
    static int alignment(long address) {
        return (int) Math.min(256, Long.lowestOneBit(address == 0 ? 256 : address));
    }

    @Override
    public void close() {
        try {
            for (Plan p : plans.values()) if (p != null) destroyDescriptors(p.desc, p.a, p.b, p.d);
            plans.clear();
            if (workspace != 0) api.memFree(workspace);
            workspace = 0;
            check((int) destroy.invokeExact(handle), "cublasLtDestroy");
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        } finally {
            arena.close();
        }
    }
}
