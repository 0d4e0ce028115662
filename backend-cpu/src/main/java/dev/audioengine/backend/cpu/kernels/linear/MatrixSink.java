package dev.audioengine.backend.cpu.kernels.linear;

import dev.audioengine.backend.cpu.kernels.CpuTensor;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/** Where the GEMM writes C: a row-major F32 matrix in native memory or in a float array, or a layout of a kernel's own. */
public interface MatrixSink {
    /** Stores (or adds, when {@code accumulate}) tile[r * ldt + c] into C[m0 + r, n0 + c]. */
    void store(int m0, int n0, int rows, int cols, float[] tile, int ldt, boolean accumulate);

    /** C rows start {@code ldc} floats apart at byte offset {@code base} of {@code segment}. */
    record Segment(MemorySegment segment, long base, long ldc) implements MatrixSink {
        private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;

        @Override
        public void store(int m0, int n0, int rows, int cols, float[] tile, int ldt, boolean accumulate) {
            for (int r = 0; r < rows; r++) {
                long at = base + ((m0 + r) * ldc + n0) * 4L;
                int t = r * ldt, c = 0;
                for (int upper = S.loopBound(cols); c < upper; c += S.length()) {
                    FloatVector v = FloatVector.fromArray(S, tile, t + c);
                    if (accumulate)
                        v = v.add(FloatVector.fromMemorySegment(S, segment, at + c * 4L, ByteOrder.nativeOrder()));
                    v.intoMemorySegment(segment, at + c * 4L, ByteOrder.nativeOrder());
                }
                for (; c < cols; c++) {
                    float v = tile[t + c];
                    if (accumulate) v += segment.get(CpuTensor.F32, at + c * 4L);
                    segment.set(CpuTensor.F32, at + c * 4L, v);
                }
            }
        }
    }

    /** C rows start {@code ldc} floats apart from {@code offset} in {@code array}. */
    record Array(float[] array, int offset, int ldc) implements MatrixSink {
        @Override
        public void store(int m0, int n0, int rows, int cols, float[] tile, int ldt, boolean accumulate) {
            for (int r = 0; r < rows; r++) {
                int at = offset + (m0 + r) * ldc + n0, t = r * ldt;
                if (accumulate) for (int c = 0; c < cols; c++) array[at + c] += tile[t + c];
                else System.arraycopy(tile, t, array, at, cols);
            }
        }
    }
}
