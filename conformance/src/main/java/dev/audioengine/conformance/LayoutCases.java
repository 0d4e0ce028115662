package dev.audioengine.conformance;

import dev.audioengine.api.graph.Op.PadMode;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;

import java.util.List;

import static dev.audioengine.conformance.CaseDraft.dims;
import static dev.audioengine.conformance.CaseDraft.lower;

/**
 * pad, concat, contiguous (which is where slice, permute and transpose views meet a kernel) and
 * cast in both directions for every dtype.
 */
final class LayoutCases {
    private LayoutCases() {}

    static void addTo(List<ConformanceCase> out) {
        for (PadMode m : PadMode.values()) pad(out, m);
        concat(out);
        contiguous(out);
        cast(out);
    }

    private static void pad(List<ConformanceCase> out, PadMode m) {
        long[][][] specs = {
                {{7}, {2}, {3}},
                {{2, 3, 33}, {0, 1, 4}, {1, 0, 5}},
                {{1, 5, 1025}, {0, 0, 7}, {0, 0, 9}},
                {{2, 2, 3, 9}, {0, 0, 1, 2}, {0, 0, 2, 1}},
        };
        float value = m == PadMode.ZERO ? 0.5f : 0f; // ZERO's fill value is not always 0: a kernel ignoring it fails
        for (long[][] s : specs) {
            CaseDraft d = new CaseDraft();
            Tensor y = d.g.pad(d.f32("x", s[0]), m, s[1], s[2], value);
            out.add(d.done(y, "f32", mode(m) + " x" + dims(s[0]) + " before" + dims(s[1]) + " after" + dims(s[2]), Bound.F32));
        }
        CaseDraft d = new CaseDraft();
        Tensor y = d.g.pad(d.transposed("x", 4, 33), m, new long[] {1, 2}, new long[] {0, 3}, value);
        out.add(d.done(y, "f32", mode(m) + " x[4,33] transposed view before[1,2] after[0,3]", Bound.F32));
    }

    private static String mode(PadMode m) { return m.name().toLowerCase(java.util.Locale.ROOT); }

    private static void concat(List<ConformanceCase> out) {
        long[][][] pieces = {
                {{1, 5}, {3, 5}},
                {{2, 3, 7}, {2, 1, 7}, {2, 5, 7}},
                {{4, 33}, {4, 1}, {4, 257}},
                {{2, 3, 4, 5}, {2, 3, 1, 5}},
                {{7, 3}},
        };
        int[] axes = {0, 1, -1, 2, 0};
        for (int i = 0; i < pieces.length; i++) {
            CaseDraft d = new CaseDraft();
            Tensor[] xs = new Tensor[pieces[i].length];
            StringBuilder s = new StringBuilder("axis " + axes[i] + ":");
            for (int j = 0; j < xs.length; j++) {
                xs[j] = d.f32("x" + j, pieces[i][j]);
                s.append(' ').append(dims(pieces[i][j]));
            }
            out.add(d.done(d.g.concat(axes[i], xs), "f32", s.toString(), Bound.F32));
        }
        CaseDraft d = new CaseDraft();
        Tensor a = d.transposed("a", 5, 9), b = d.f32("b", 5, 4);
        out.add(d.done(d.g.concat(1, a, b), "f32", "axis 1: [5,9] transposed view, [5,4]", Bound.F32));
    }

    private static void contiguous(List<ConformanceCase> out) {
        CaseDraft d = new CaseDraft();
        out.add(d.done(d.g.contiguous(d.g.permute(d.f32("x", 2, 3, 5), 2, 0, 1)), "f32", "permute [2,3,5] -> (2,0,1)", Bound.F32));
        d = new CaseDraft();
        out.add(d.done(d.g.contiguous(d.transposed("x", 33, 257)), "f32", "transpose [257,33] -> [33,257]", Bound.F32));
        d = new CaseDraft();
        out.add(d.done(d.g.contiguous(d.g.slice(d.f32("x", 4, 100), 1, 1, 98, 3)), "f32", "slice [4,100][:,1:98:3]", Bound.F32));
        d = new CaseDraft();
        out.add(d.done(d.g.contiguous(d.g.permute(d.f32("x", 2, 3, 4, 5), 0, 2, 3, 1)), "f32", "permute [2,3,4,5] -> (0,2,3,1)", Bound.F32));
        d = new CaseDraft();
        out.add(d.done(d.g.contiguous(d.g.slice(d.f32("x", 10, 7), 0, 3, 8)), "f32", "slice [10,7][3:8] (offset view)", Bound.F32));
        d = new CaseDraft();
        out.add(d.done(d.g.contiguous(d.g.permute(d.f32("x", 1, 7, 1), 2, 1, 0)), "f32", "permute [1,7,1] -> (2,1,0)", Bound.F32));
        d = new CaseDraft();
        out.add(d.done(d.g.contiguous(d.transposed("x", DType.F16, Values.normal(), 17, 33)), "f16", "transpose [33,17] -> [17,33]", Bound.EXACT));
        d = new CaseDraft();
        out.add(d.done(d.g.contiguous(d.g.slice(d.input("x", DType.BF16, Values.normal(), 3, 64), 1, 0, 64, 2)), "bf16", "slice [3,64][:,::2]", Bound.EXACT));
        d = new CaseDraft();
        out.add(d.done(d.g.contiguous(d.transposed("x", DType.I32, Values.ints(-1000, 1000), 5, 9)), "i32", "transpose [9,5] -> [5,9]", Bound.EXACT));
        d = new CaseDraft();
        out.add(d.done(d.g.contiguous(d.g.slice(d.input("x", DType.Q8_0, Values.normal(), 6, 64), 0, 1, 6, 2)), "q8_0", "slice rows [6,64][1:6:2]", Bound.EXACT));
    }

    /** Casts from F32 to every other dtype and back; narrowing bounds allow only rare one-step disagreements. */
    private static void cast(List<ConformanceCase> out) {
        List<DType> others = List.of(DType.F16, DType.BF16, DType.Q8_0, DType.Q4_0, DType.I32);
        long[][] shapes = {{32}, {3, 1024}, {1, 7, 64}};
        for (DType to : others) {
            Bound b = switch (to) {
                case F16 -> Bound.CAST_F16;
                case BF16 -> Bound.CAST_BF16;
                case Q8_0 -> Bound.CAST_Q8_0;
                case Q4_0 -> Bound.CAST_Q4_0;
                default -> Bound.EXACT;
            };
            // I32 casts round to nearest: draw from a wide range so exact .5 ties do not occur
            Values v = to == DType.I32 ? Values.uniform(-100, 100) : new Values.Normal(2);
            for (long[] s : shapes) {
                CaseDraft d = new CaseDraft();
                out.add(d.done(d.g.cast(d.f32("x", v, s), to), lower(to), "f32->" + lower(to) + " x" + dims(s), b));
            }
            CaseDraft d = new CaseDraft();
            Tensor strided = to.isQuantized()
                    ? d.g.slice(d.f32("x", v, 6, 64), 0, 1, 6, 2)
                    : d.transposed("x", DType.F32, v, 3, 65);
            out.add(d.done(d.g.cast(strided, to), lower(to), "f32->" + lower(to) + (to.isQuantized() ? " rows [6,64][1:6:2]" : " x[3,65] transposed view"), b));
        }
        for (DType from : others) {
            Values v = from == DType.I32 ? Values.ints(-100000, 100000) : new Values.Normal(2);
            for (long[] s : new long[][] {{32}, {3, 1024}, {5, 64}}) {
                CaseDraft d = new CaseDraft();
                // widening is exact: every F16/BF16/I32 (|i| < 2^24) value and every dequantized block value is an F32
                out.add(d.done(d.g.cast(d.input("x", from, v, s), DType.F32), lower(from), lower(from) + "->f32 x" + dims(s), Bound.EXACT));
            }
        }
    }
}
