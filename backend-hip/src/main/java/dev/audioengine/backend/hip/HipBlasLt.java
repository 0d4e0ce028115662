package dev.audioengine.backend.hip;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
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
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * hipBLASLt (libhipblaslt, ROCm 6 and 7): column-major GEMM D = op(A)·op(B) with F32 accumulation for
 * F32, F16 and BF16 inputs, strided batches; the API of cuBLASLt with AMD's enum values. Each distinct
 * shape gets a {@link Plan} (descriptors and the heuristic's algorithm) made once and kept until
 * {@link #close()}. Used only with {@code hip.hipblaslt=on} until `check --backend hip` has passed with
 * it on an AMD GPU.
 */
final class HipBlasLt implements AutoCloseable {
    static final List<String> SONAMES = List.of("libhipblaslt.so.1", "libhipblaslt.so.0", "libhipblaslt.so");

    // hipDataType (library_types.h, the same values as CUDA's)
    static final int HIP_R_32F = 0, HIP_R_16F = 2, HIP_R_16BF = 14;
    // hipblasComputeType_t (hipblas-common.h, ROCm 6.0 to 7.2)
    static final int HIPBLAS_COMPUTE_32F = 2;
    // hipblasOperation_t (rocBLAS's values)
    static final int OP_N = 111, OP_T = 112;
    // hipblasLtMatmulDescAttributes_t
    static final int DESC_TRANSA = 0, DESC_TRANSB = 1;
    // hipblasLtMatrixLayoutAttribute_t
    static final int LAYOUT_BATCH_COUNT = 0, LAYOUT_STRIDED_BATCH_OFFSET = 1;
    // hipblasLtMatmulPreferenceAttributes_t
    static final int PREF_MAX_WORKSPACE_BYTES = 1;

    static final long WORKSPACE_BYTES = 32L << 20;

    /** hipblasLtMatmulAlgo_t { uint8_t data[16]; size_t max_workspace_bytes; } (hipblaslt.h, AMD platform). */
    static final StructLayout ALGO = MemoryLayout.structLayout(
            MemoryLayout.sequenceLayout(16, JAVA_BYTE).withName("data"), JAVA_LONG.withName("max_workspace_bytes"));

    /** hipblasLtMatmulHeuristicResult_t: algo, workspaceSize, state, wavesCount, int reserved[4]. */
    static final StructLayout HEURISTIC_RESULT = MemoryLayout.structLayout(
            ALGO.withName("algo"),
            JAVA_LONG.withName("workspaceSize"),
            JAVA_INT.withName("state"),
            JAVA_FLOAT.withName("wavesCount"),
            MemoryLayout.sequenceLayout(4, JAVA_INT).withName("reserved"));

    /** Everything that decides descriptors and algorithm. Dimensions are hipBLASLt's (column-major). */
    record Shape(int abType, int transA, int transB, long m, long n, long k, long lda, long ldb, long ldd,
                 int batch, long strideA, long strideB, long strideD) {}

    /** A shape's descriptors and chosen algorithm; owned by the HipBlasLt that made it. */
    record Plan(Shape shape, MemorySegment desc, MemorySegment a, MemorySegment b, MemorySegment d, MemorySegment algo) {}

    private final String location;
    private final HipApi api;
    private final MethodHandle create, destroy, descCreate, descSet, descDestroy, layoutCreate, layoutSet, layoutDestroy;
    private final MethodHandle prefCreate, prefSet, prefDestroy, heuristic, matmul;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment handle, alpha, beta, one;
    private final Map<Shape, Plan> plans = new HashMap<>();
    private long workspace;

    /** Every entry point bound, for the test that checks the names against hipblaslt.h. */
    static final String[] ENTRY_POINTS = {"hipblasLtCreate", "hipblasLtDestroy", "hipblasLtMatmulDescCreate",
            "hipblasLtMatmulDescSetAttribute", "hipblasLtMatmulDescDestroy", "hipblasLtMatrixLayoutCreate",
            "hipblasLtMatrixLayoutSetAttribute", "hipblasLtMatrixLayoutDestroy", "hipblasLtMatmulPreferenceCreate",
            "hipblasLtMatmulPreferenceSetAttribute", "hipblasLtMatmulPreferenceDestroy", "hipblasLtMatmulAlgoGetHeuristic",
            "hipblasLtMatmul"};

    private HipBlasLt(SymbolLookup lib, String location, HipApi api) {
        this.location = location;
        this.api = api;
        create = bind(lib, "hipblasLtCreate", ADDRESS);
        destroy = bind(lib, "hipblasLtDestroy", ADDRESS);
        descCreate = bind(lib, "hipblasLtMatmulDescCreate", ADDRESS, JAVA_INT, JAVA_INT);
        descSet = bind(lib, "hipblasLtMatmulDescSetAttribute", ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG);
        descDestroy = bind(lib, "hipblasLtMatmulDescDestroy", ADDRESS);
        layoutCreate = bind(lib, "hipblasLtMatrixLayoutCreate", ADDRESS, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG);
        layoutSet = bind(lib, "hipblasLtMatrixLayoutSetAttribute", ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG);
        layoutDestroy = bind(lib, "hipblasLtMatrixLayoutDestroy", ADDRESS);
        prefCreate = bind(lib, "hipblasLtMatmulPreferenceCreate", ADDRESS);
        prefSet = bind(lib, "hipblasLtMatmulPreferenceSetAttribute", ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG);
        prefDestroy = bind(lib, "hipblasLtMatmulPreferenceDestroy", ADDRESS);
        heuristic = bind(lib, "hipblasLtMatmulAlgoGetHeuristic", ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS,
                ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);
        // hipblasLtMatmul(handle, desc, alpha, A, Adesc, B, Bdesc, beta, C, Cdesc, D, Ddesc, algo*, workspace, size, stream)
        matmul = bind(lib, "hipblasLtMatmul", ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS,
                ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS);
        MemorySegment h = arena.allocate(ADDRESS);
        try {
            check((int) create.invokeExact(h), "hipblasLtCreate");
        } catch (Throwable t) { throw HipRuntime.rethrow(t); }
        handle = h.get(ADDRESS, 0);
        alpha = arena.allocateFrom(JAVA_FLOAT, 1f);
        beta = arena.allocateFrom(JAVA_FLOAT, 0f);
        one = arena.allocateFrom(JAVA_FLOAT, 1f);
    }

    private MethodHandle bind(SymbolLookup lib, String name, MemoryLayout... args) {
        MemorySegment symbol = lib.find(name).orElseThrow(() -> new IllegalStateException(location + " does not export " + name
                + "; it is not hipBLASLt of ROCm 6 or later"));
        return Linker.nativeLinker().downcallHandle(symbol, FunctionDescriptor.of(JAVA_INT, args));
    }

    /** Where hipBLASLt would be loaded from, or null when it is not installed. */
    static String find(List<Path> folders) {
        HipLibrary lib = HipLibrary.find(SONAMES, folders);
        return lib.found() ? lib.location() : null;
    }

    /** Loads libhipblaslt and creates a handle (for the current device); throws IllegalStateException listing what was tried. */
    static HipBlasLt load(HipApi api, List<Path> folders) {
        HipLibrary lib = HipLibrary.find(SONAMES, folders);
        if (!lib.found()) {
            throw new IllegalStateException("hip.hipblaslt=on but hipBLASLt was not found (" + lib.searchReport()
                    + "); install ROCm's hipblaslt package, or leave hip.hipblaslt off to use the engine's GEMM kernels");
        }
        return new HipBlasLt(lib.symbols(), lib.location(), api);
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
            check((int) descCreate.invokeExact(out, HIPBLAS_COMPUTE_32F, HIP_R_32F), "hipblasLtMatmulDescCreate");
            MemorySegment desc = out.get(ADDRESS, 0);
            check((int) descSet.invokeExact(desc, DESC_TRANSA, a.allocateFrom(JAVA_INT, s.transA()), 4L), "set TRANSA");
            check((int) descSet.invokeExact(desc, DESC_TRANSB, a.allocateFrom(JAVA_INT, s.transB()), 4L), "set TRANSB");
            MemorySegment la = layout(a, s.abType(), s.transA() == OP_N ? s.m() : s.k(), s.transA() == OP_N ? s.k() : s.m(), s.lda(), s.batch(), s.strideA());
            MemorySegment lb = layout(a, s.abType(), s.transB() == OP_N ? s.k() : s.n(), s.transB() == OP_N ? s.n() : s.k(), s.ldb(), s.batch(), s.strideB());
            MemorySegment ld = layout(a, HIP_R_32F, s.m(), s.n(), s.ldd(), s.batch(), s.strideD());
            check((int) prefCreate.invokeExact(out), "hipblasLtMatmulPreferenceCreate");
            MemorySegment pref = out.get(ADDRESS, 0);
            try {
                check((int) prefSet.invokeExact(pref, PREF_MAX_WORKSPACE_BYTES, a.allocateFrom(JAVA_LONG, WORKSPACE_BYTES), 8L), "set workspace");
                MemorySegment result = arena.allocate(HEURISTIC_RESULT);
                MemorySegment count = a.allocate(JAVA_INT);
                int r = (int) heuristic.invokeExact(handle, desc, la, lb, ld, ld, pref, 1, result, count);
                if (r != 0 || count.get(JAVA_INT, 0) == 0) {
                    destroyDescriptors(desc, la, lb, ld);
                    return null;
                }
                return new Plan(s, desc, la, lb, ld, result); // the algo is the result's first member
            } finally {
                check((int) prefDestroy.invokeExact(pref), "hipblasLtMatmulPreferenceDestroy");
            }
        } catch (Throwable t) { throw HipRuntime.rethrow(t); }
    }

    private MemorySegment layout(Arena a, int type, long rows, long cols, long ld, int batch, long stride) throws Throwable {
        MemorySegment out = a.allocate(ADDRESS);
        check((int) layoutCreate.invokeExact(out, type, rows, cols, ld), "hipblasLtMatrixLayoutCreate");
        MemorySegment l = out.get(ADDRESS, 0);
        if (batch > 1) {
            check((int) layoutSet.invokeExact(l, LAYOUT_BATCH_COUNT, a.allocateFrom(JAVA_INT, batch), 4L), "set BATCH_COUNT");
            check((int) layoutSet.invokeExact(l, LAYOUT_STRIDED_BATCH_OFFSET, a.allocateFrom(JAVA_LONG, stride), 8L), "set STRIDED_BATCH_OFFSET");
        }
        return l;
    }

    /** Enqueues D = op(A)·op(B), or D += op(A)·op(B) when {@code accumulate}. */
    void run(Plan p, long aPtr, long bPtr, long dPtr, MemorySegment stream, boolean accumulate) {
        MemorySegment betaValue = accumulate ? one : beta;
        try {
            check((int) matmul.invokeExact(handle, p.desc(), alpha, aPtr, p.a(), bPtr, p.b(), betaValue, dPtr, p.d(), dPtr, p.d(),
                    p.algo(), workspace, WORKSPACE_BYTES, stream), "hipblasLtMatmul");
        } catch (Throwable t) { throw HipRuntime.rethrow(t); }
    }

    private void ensureWorkspace() {
        if (workspace != 0) return;
        long[] out = new long[1];
        int r = api.malloc(WORKSPACE_BYTES, out);
        api.runtime().check(r, "hipMalloc (hipBLASLt workspace, " + WORKSPACE_BYTES + " bytes)");
        workspace = out[0];
    }

    private void destroyDescriptors(MemorySegment desc, MemorySegment a, MemorySegment b, MemorySegment d) throws Throwable {
        check((int) descDestroy.invokeExact(desc), "hipblasLtMatmulDescDestroy");
        check((int) layoutDestroy.invokeExact(a), "hipblasLtMatrixLayoutDestroy");
        check((int) layoutDestroy.invokeExact(b), "hipblasLtMatrixLayoutDestroy");
        check((int) layoutDestroy.invokeExact(d), "hipblasLtMatrixLayoutDestroy");
    }

    private void check(int status, String call) {
        if (status != 0) throw new IllegalStateException(call + " failed: hipblasStatus_t " + status + " (" + location + ")");
    }

    @Override
    public void close() {
        try {
            for (Plan p : plans.values()) if (p != null) destroyDescriptors(p.desc(), p.a(), p.b(), p.d());
            plans.clear();
            if (workspace != 0) api.free(workspace);
            workspace = 0;
            check((int) destroy.invokeExact(handle), "hipblasLtDestroy");
        } catch (Throwable t) {
            throw HipRuntime.rethrow(t);
        } finally {
            arena.close();
        }
    }
}
