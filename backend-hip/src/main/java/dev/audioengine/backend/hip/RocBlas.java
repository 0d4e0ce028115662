package dev.audioengine.backend.hip;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.audioengine.api.spi.NativeLibrary;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.gpu.GpuException;
import dev.audioengine.gpu.gemm.GpuBlas;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.List;

/**
 * rocBLAS as the ROCm backend's {@link GpuBlas} where hipBLASLt is missing: one
 * {@code rocblas_gemm_strided_batched_ex} per product, F32 accumulation. rocBLAS picks its kernel
 * per call, so a plan here only holds the checked arguments. Enum values from rocblas-types.h
 * (the same in ROCm 5, 6 and 7). rocBLAS has no TF32 path: F32 runs in full F32 even when
 * {@code hip.tf32=on}.
 */
final class RocBlas implements GpuBlas {
    /** ROCm 7, 6 and 5 (rocBLAS 5.x, 4.x, 2.x/3.x). */
    static final List<String> SONAMES =
            List.of("librocblas.so.5", "librocblas.so.4", "librocblas.so.3", "librocblas.so.0");

    static final int OPERATION_NONE = 111, OPERATION_TRANSPOSE = 112;
    static final int DATATYPE_F16_R = 150, DATATYPE_F32_R = 151, DATATYPE_BF16_R = 168;
    static final int GEMM_ALGO_STANDARD = 0, GEMM_FLAGS_NONE = 0;

    /** What one product passes to rocblas_gemm_strided_batched_ex besides the pointers. */
    record RocPlan(
            int transA,
            int transB,
            int m,
            int n,
            int k,
            int abType,
            int lda,
            long strideA,
            int ldb,
            long strideB,
            int dType,
            int ldd,
            long strideD,
            int batch)
            implements Plan {}

    private final String location;
    private final MethodHandle destroy, setStream, gemm, statusToString;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment handle, one, zero;

    private RocBlas(
            String location,
            MethodHandle create,
            MethodHandle destroy,
            MethodHandle setStream,
            MethodHandle gemm,
            MethodHandle statusToString) {
        this.location = location;
        this.destroy = destroy;
        this.setStream = setStream;
        this.gemm = gemm;
        this.statusToString = statusToString;
        one = arena.allocateFrom(JAVA_FLOAT, 1f);
        zero = arena.allocateFrom(JAVA_FLOAT, 0f);
        MemorySegment h = arena.allocate(ADDRESS);
        try {
            check((int) create.invokeExact(h), "rocblas_create_handle");
        } catch (Throwable t) {
            arena.close();
            throw GpuException.unchecked(t);
        }
        handle = h.get(ADDRESS, 0);
    }

    /** Loads librocblas and creates a handle; throws IllegalStateException listing every name and folder tried. */
    static GpuBlas load(List<Path> folders) {
        NativeLibrary lib = NativeLibrary.find(SONAMES, folders, "rocblas_create_handle");
        if (!lib.found()) throw new IllegalStateException("rocBLAS not found (" + lib.searchReport() + ")");
        String why = "it is not rocBLAS 2 or later";
        return new RocBlas(
                lib.location(),
                HipRuntime.bind(lib.symbols(), lib.location(), "rocblas_create_handle", why, ADDRESS),
                HipRuntime.bind(lib.symbols(), lib.location(), "rocblas_destroy_handle", why, ADDRESS),
                HipRuntime.bind(lib.symbols(), lib.location(), "rocblas_set_stream", why, ADDRESS, ADDRESS),
                HipRuntime.bind(lib.symbols(), lib.location(), "rocblas_gemm_strided_batched_ex", why, GEMM_ARGS),
                Linker.nativeLinker()
                        .downcallHandle(
                                HipRuntime.symbol(lib.symbols(), lib.location(), "rocblas_status_to_string", why),
                                FunctionDescriptor.of(ADDRESS, JAVA_INT)));
    }

    /** rocblas_gemm_strided_batched_ex's parameters after the handle (rocblas_int is 32-bit, rocblas_stride 64-bit). */
    static final MemoryLayout[] GEMM_ARGS = {
        ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, // handle, transA, transB, m, n, k
        ADDRESS, // alpha
        ADDRESS, JAVA_INT, JAVA_INT, JAVA_LONG, // a, a_type, lda, stride_a
        ADDRESS, JAVA_INT, JAVA_INT, JAVA_LONG, // b, b_type, ldb, stride_b
        ADDRESS, // beta
        ADDRESS, JAVA_INT, JAVA_INT, JAVA_LONG, // c, c_type, ldc, stride_c
        ADDRESS, JAVA_INT, JAVA_INT, JAVA_LONG, // d, d_type, ldd, stride_d
        JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT
    }; // batch_count, compute_type, algo, solution_index, flags

    /**
     * The arguments for {@code s}, or null where rocBLAS has no such product or a size does not
     * fit rocblas_int: then the engine's own kernel runs it.
     */
    @Override
    public Plan plan(Shape s) {
        return planFor(s);
    }

    static RocPlan planFor(Shape s) {
        int ab = type(s.ab()), d = type(s.d());
        if (ab < 0 || d < 0) return null;
        if (s.ab() == DType.F32 ? s.d() != DType.F32 : s.d() != s.ab() && s.d() != DType.F32)
            return null; // F16/BF16 in, same or F32 out
        long[] ints = {s.m(), s.n(), s.k(), s.lda(), s.ldb(), s.ldd(), s.batch()};
        for (long v : ints) if (v > Integer.MAX_VALUE || v < 0) return null;
        return new RocPlan(
                s.transA() ? OPERATION_TRANSPOSE : OPERATION_NONE,
                s.transB() ? OPERATION_TRANSPOSE : OPERATION_NONE,
                (int) s.m(),
                (int) s.n(),
                (int) s.k(),
                ab,
                (int) s.lda(),
                s.strideA(),
                (int) s.ldb(),
                s.strideB(),
                d,
                (int) s.ldd(),
                s.strideD(),
                s.batch());
    }

    private static int type(DType t) {
        return switch (t) {
            case F32 -> DATATYPE_F32_R;
            case F16 -> DATATYPE_F16_R;
            case BF16 -> DATATYPE_BF16_R;
            default -> -1;
        };
    }

    @Override
    public void run(Plan plan, long a, long b, long d, MemorySegment stream, boolean accumulate) {
        RocPlan p = (RocPlan) plan;
        MemorySegment dp = MemorySegment.ofAddress(d);
        try {
            check((int) setStream.invokeExact(handle, stream), "rocblas_set_stream");
            check(
                    (int) gemm.invokeExact(
                            handle,
                            p.transA,
                            p.transB,
                            p.m,
                            p.n,
                            p.k,
                            one,
                            MemorySegment.ofAddress(a),
                            p.abType,
                            p.lda,
                            p.strideA,
                            MemorySegment.ofAddress(b),
                            p.abType,
                            p.ldb,
                            p.strideB,
                            accumulate ? one : zero,
                            dp,
                            p.dType,
                            p.ldd,
                            p.strideD,
                            dp,
                            p.dType,
                            p.ldd,
                            p.strideD,
                            p.batch,
                            DATATYPE_F32_R,
                            GEMM_ALGO_STANDARD,
                            0,
                            GEMM_FLAGS_NONE),
                    "rocblas_gemm_strided_batched_ex");
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    private void check(int status, String call) throws Throwable {
        if (status == 0) return;
        MemorySegment name = (MemorySegment) statusToString.invokeExact(status);
        String text = name.equals(MemorySegment.NULL)
                ? "rocblas_status " + status
                : name.reinterpret(256).getString(0);
        throw new GpuException(call, text);
    }

    @Override
    public String describe() {
        return "rocBLAS " + location;
    }

    @Override
    public void close() {
        try {
            int ignored = (int) destroy.invokeExact(handle);
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        } finally {
            arena.close();
        }
    }
}
