// Evidence for docs/PERFORMANCE.md, "Less for C2 to compile" (issue 26): a Q8_0 mat-vec row (32 int8 quants and an
// F16 scale per block, as TensorMatrix.q8Oct reads each of its streams) in the Vector API form against a scalar form:
// C2 compile time of each and speed once compiled. Not part of the build; run with ./run.sh in this folder.
import jdk.incubator.vector.*;
import java.lang.foreign.*;
import java.nio.ByteOrder;
public class Q8MatVecScalarVsVector {
    static final VectorSpecies<Float> F = FloatVector.SPECIES_512;
    static final VectorSpecies<Byte> B = ByteVector.SPECIES_128;
    static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED;
    static final ByteOrder NATIVE = ByteOrder.nativeOrder();
    // the vector form: one row, two 16-lane halves per block (as q8Oct does per stream)
    static float vec(MemorySegment seg, long at, float[] a, int k) {
        FloatVector s = FloatVector.zero(F);
        for (int b = 0; b < k; b += 32, at += 34) {
            FloatVector x = FloatVector.fromArray(F, a, b), y = FloatVector.fromArray(F, a, b + 16);
            FloatVector p = ((FloatVector) ByteVector.fromMemorySegment(B, seg, at + 2, NATIVE).convertShape(VectorOperators.B2F, F, 0))
                    .fma(x, ((FloatVector) ByteVector.fromMemorySegment(B, seg, at + 18, NATIVE).convertShape(VectorOperators.B2F, F, 0)).mul(y));
            s = p.fma(FloatVector.broadcast(F, Float.float16ToFloat(seg.get(I16, at))), s);
        }
        return s.reduceLanes(VectorOperators.ADD);
    }
    // the scalar form: four partial sums per block
    static float scalar(MemorySegment seg, long at, float[] a, int k) {
        float s = 0;
        for (int b = 0; b < k; b += 32, at += 34) {
            float p0 = 0, p1 = 0, p2 = 0, p3 = 0;
            for (int i = 0; i < 32; i += 4) {
                p0 += seg.get(ValueLayout.JAVA_BYTE, at + 2 + i) * a[b + i];
                p1 += seg.get(ValueLayout.JAVA_BYTE, at + 3 + i) * a[b + i + 1];
                p2 += seg.get(ValueLayout.JAVA_BYTE, at + 4 + i) * a[b + i + 2];
                p3 += seg.get(ValueLayout.JAVA_BYTE, at + 5 + i) * a[b + i + 3];
            }
            s += Float.float16ToFloat(seg.get(I16, at)) * ((p0 + p1) + (p2 + p3));
        }
        return s;
    }
    public static void main(String[] args) {
        boolean v = args[0].equals("vec");
        int k = 288, rows = 1152, calls = Integer.parseInt(args[1]);
        long rowBytes = k / 32 * 34;
        MemorySegment seg = Arena.global().allocate(rowBytes * rows);
        java.util.Random rnd = new java.util.Random(1);
        for (long i = 0; i < seg.byteSize(); i++) seg.set(ValueLayout.JAVA_BYTE, i, (byte) rnd.nextInt());
        for (int r = 0; r < rows; r++) for (int b = 0; b < k / 32; b++) seg.set(I16, r * rowBytes + b * 34, Float.floatToFloat16(0.01f));
        float[] a = new float[k];
        for (int i = 0; i < k; i++) a[i] = rnd.nextFloat();
        long t0 = System.nanoTime(); double sum = 0;
        for (int c = 0; c < calls; c++) {
            for (int r = 0; r < rows; r++) sum += v ? vec(seg, r * rowBytes, a, k) : scalar(seg, r * rowBytes, a, k);
            if (c == 9 || c == 99 || c == calls - 1) System.out.printf("%s matvecs=%d %.1f ms%n", args[0], c + 1, (System.nanoTime() - t0) / 1e6);
        }
        long t1 = System.nanoTime();
        for (int c = 0; c < 2000; c++) for (int r = 0; r < rows; r++) sum += v ? vec(seg, r * rowBytes, a, k) : scalar(seg, r * rowBytes, a, k);
        System.out.printf("%s warm %.1f us/matvec (%.2f GB/s of weights) %f%n", args[0], (System.nanoTime() - t1) / 1e3 / 2000, rowBytes * rows * 2000.0 / (System.nanoTime() - t1), sum);
    }
}
