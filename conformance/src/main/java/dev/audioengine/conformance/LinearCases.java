package dev.audioengine.conformance;

import static dev.audioengine.conformance.CaseDraft.dims;
import static dev.audioengine.conformance.CaseDraft.lower;

import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import java.util.List;

/** matmul over every weight dtype, conv1d (plain, grouped, depthwise) and conv_transpose1d. */
final class LinearCases {
    private LinearCases() {}

    static final List<DType> WEIGHT_TYPES =
            List.of(DType.F32, DType.F16, DType.BF16, DType.Q8_0, DType.Q4_0, DType.Q5_0, DType.Q5_1, DType.Q4_1);

    /** ggml's k-quants: rows of whole 256-value super-blocks, so they have cases of their own shapes. */
    static final List<DType> SUPER_BLOCK_TYPES = List.of(DType.Q6_K, DType.Q4_K, DType.Q5_K, DType.Q3_K, DType.Q2_K);

    static void addTo(List<ConformanceCase> out) {
        for (DType w : WEIGHT_TYPES) matmul(out, w);
        for (DType w : SUPER_BLOCK_TYPES) matmulSuperBlocks(out, w);
        for (DType w : WEIGHT_TYPES) matmulConstantWeights(out, w);
        matmulF32Only(out);
        conv1d(out);
        convTranspose1d(out);
    }

    static Bound matmulBound(DType w) {
        return switch (w) {
            case F32 -> Bound.F32;
            case F16 -> Bound.F16_MATH;
            case BF16 -> Bound.BF16_MATH;
            default -> Bound.QUANT_MATH;
        };
    }

    /** Shapes with K a multiple of 32 so every weight dtype can hold them; N and M cross tile sizes. */
    private static void matmul(List<ConformanceCase> out, DType w) {
        // {64, 257, 288}: the most rows GPUs give their quantized mat-vec, {65, 17, 1024} the first past it;
        // {16, 1001, 416}: a block of outputs left part-full
        long[][] mnk = {
            {1, 3, 32},
            {1, 257, 64},
            {7, 33, 96},
            {33, 65, 256},
            {64, 257, 288},
            {1, 129, 1024},
            {65, 17, 1024},
            {16, 1001, 416}
        };
        for (long[] s : mnk) {
            CaseDraft d = new CaseDraft();
            Tensor x = d.f32("x", s[0], s[2]), wt = d.input("w", w, Values.normal(), s[1], s[2]);
            out.add(d.done(
                    d.g.matmul(x, wt),
                    lower(w),
                    "x[" + s[0] + "," + s[2] + "] w[" + s[1] + "," + s[2] + "]",
                    matmulBound(w)));
        }
        CaseDraft d = new CaseDraft();
        Tensor x = d.f32("x", 2, 3, 5, 64), wt = d.input("w", w, Values.normal(), 3, 17, 64);
        out.add(d.done(d.g.matmul(x, wt), lower(w), "x[2,3,5,64] w[3,17,64] batch broadcast", matmulBound(w)));

        d = new CaseDraft();
        x = d.transposed("x", 17, 64);
        wt = d.input("w", w, Values.normal(), 33, 64);
        out.add(d.done(d.g.matmul(x, wt), lower(w), "x[17,64] transposed view w[33,64]", matmulBound(w)));

        d = new CaseDraft();
        x = d.f32("x", 4, 7, 160);
        wt = d.input("w", w, Values.normal(), 1, 40, 160);
        out.add(d.done(d.g.matmul(x, wt), lower(w), "x[4,7,160] w[1,40,160]", matmulBound(w)));
    }

    /**
     * Weights as graph constants, as models hold them: a backend may prepare constants once
     * (repack, convert) in compile, which input weights never exercise. Constant values are fixed
     * (seed below) because the graph, and so its constants, is built once per catalogue.
     */
    private static void matmulConstantWeights(List<ConformanceCase> out, DType w) {
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(0xC0FFEE ^ w.ordinal());
        CaseDraft d = new CaseDraft();
        Tensor x = d.f32("x", 9, 96);
        Tensor wt = d.g.constant("w", Values.normal().draw(w, dev.audioengine.api.tensor.Shape.of(65, 96), rnd));
        out.add(d.done(d.g.matmul(x, wt), lower(w), "x[9,96] w[65,96] constant", matmulBound(w)));
        // tall products (encoder frames), where a backend may keep decoded panels of a constant: partial
        // panels, two k slices, batches folded into rows
        long[][] mnk = {{97, 33, 288}, {300, 70, 1056}};
        for (long[] s : mnk) {
            d = new CaseDraft();
            x = d.f32("x", s[0], s[2]);
            wt = d.g.constant("w", Values.normal().draw(w, dev.audioengine.api.tensor.Shape.of(s[1], s[2]), rnd));
            out.add(d.done(
                    d.g.matmul(x, wt),
                    lower(w),
                    "x[" + s[0] + "," + s[2] + "] w[" + s[1] + "," + s[2] + "] constant",
                    matmulBound(w)));
        }
        d = new CaseDraft();
        x = d.f32("x", 3, 40, 96);
        wt = d.g.constant("w", Values.normal().draw(w, dev.audioengine.api.tensor.Shape.of(65, 96), rnd));
        out.add(d.done(d.g.matmul(x, wt), lower(w), "x[3,40,96] w[65,96] constant", matmulBound(w)));
    }

    /**
     * The k-quants at K of 1 to 5 super-blocks (256, 512, 768, 1280: two k slices of the CPU's 1024): mat-vecs and
     * products of 2 to 7 rows (decoded in registers, four rows a pass), taller ones (decoded rows, packed panels), N
     * not a multiple of any tile, a broadcast batch, a transposed activation view and constant weights.
     */
    private static void matmulSuperBlocks(List<ConformanceCase> out, DType w) {
        long[][] mnk = {
            {1, 3, 256}, {1, 257, 512}, {7, 33, 768}, {5, 65, 256}, {33, 65, 512}, {1, 129, 1280}, {65, 17, 1280}
        };
        for (long[] s : mnk) {
            CaseDraft d = new CaseDraft();
            Tensor x = d.f32("x", s[0], s[2]), wt = d.input("w", w, Values.normal(), s[1], s[2]);
            out.add(d.done(
                    d.g.matmul(x, wt),
                    lower(w),
                    "x[" + s[0] + "," + s[2] + "] w[" + s[1] + "," + s[2] + "]",
                    matmulBound(w)));
        }
        CaseDraft d = new CaseDraft();
        Tensor x = d.f32("x", 2, 3, 5, 256), wt = d.input("w", w, Values.normal(), 3, 17, 256);
        out.add(d.done(d.g.matmul(x, wt), lower(w), "x[2,3,5,256] w[3,17,256] batch broadcast", matmulBound(w)));

        d = new CaseDraft();
        x = d.transposed("x", 17, 512);
        wt = d.input("w", w, Values.normal(), 33, 512);
        out.add(d.done(d.g.matmul(x, wt), lower(w), "x[17,512] transposed view w[33,512]", matmulBound(w)));

        java.util.SplittableRandom rnd = new java.util.SplittableRandom(0xC0FFEE ^ w.ordinal());
        long[][] constant = {{3, 65, 768}, {97, 33, 512}, {300, 70, 1280}};
        for (long[] s : constant) {
            d = new CaseDraft();
            x = d.f32("x", s[0], s[2]);
            wt = d.g.constant("w", Values.normal().draw(w, dev.audioengine.api.tensor.Shape.of(s[1], s[2]), rnd));
            out.add(d.done(
                    d.g.matmul(x, wt),
                    lower(w),
                    "x[" + s[0] + "," + s[2] + "] w[" + s[1] + "," + s[2] + "] constant",
                    matmulBound(w)));
        }
    }

    /** K not a multiple of 32 and strided weights exist only for plain float weights. */
    private static void matmulF32Only(List<ConformanceCase> out) {
        long[][] mnk = {{5, 7, 7}, {33, 31, 1025}, {1, 1, 1}, {3, 300, 33}};
        for (long[] s : mnk) {
            CaseDraft d = new CaseDraft();
            Tensor x = d.f32("x", s[0], s[2]), w = d.f32("w", s[1], s[2]);
            out.add(d.done(
                    d.g.matmul(x, w), "f32", "x[" + s[0] + "," + s[2] + "] w[" + s[1] + "," + s[2] + "]", Bound.F32));
        }
        for (DType w : List.of(DType.F32, DType.F16, DType.BF16)) {
            CaseDraft d = new CaseDraft();
            Tensor x = d.f32("x", 9, 33), wt = d.transposed("w", w, Values.normal(), 65, 33);
            out.add(d.done(d.g.matmul(x, wt), lower(w), "x[9,33] w[65,33] transposed view", matmulBound(w)));
        }
        CaseDraft d = new CaseDraft();
        // an offset view: contiguous rows that do not start at the buffer's first element
        Tensor xs = d.g.slice(d.f32("x", 9, 64), 0, 2, 9);
        out.add(d.done(d.g.matmul(xs, d.f32("w", 17, 64)), "f32", "x=[9,64][2:9] offset view w[17,64]", Bound.F32));
        d = new CaseDraft();
        Tensor x = d.f32("x", 2, 7, 33), w = d.f32("w", 2, 9, 33);
        out.add(d.done(d.g.matmul(x, w), "f32", "x[2,7,33] w[2,9,33] batched", Bound.F32));
    }

    private record Conv(
            String what,
            long b,
            long cin,
            long t,
            long cout,
            long k,
            int stride,
            int pad,
            int dil,
            int groups,
            boolean bias,
            boolean stridedInput) {}

    /** Depthwise (groups == channels == out channels) cases are DEPTHWISE_CONV1D_FAST's evidence. */
    static boolean isDepthwise(ConformanceCase c) {
        return c.node().op() instanceof dev.audioengine.api.graph.Op.Conv1d cv
                && cv.groups() > 1
                && cv.groups() == c.node().input(0).dim(1)
                && cv.groups() == c.node().dim(1);
    }

    private static void conv1d(List<ConformanceCase> out) {
        List<Conv> convs = List.of(
                new Conv("k=1 t=1", 1, 1, 1, 1, 1, 1, 0, 1, 1, false, false),
                new Conv("", 2, 3, 33, 5, 3, 1, 1, 1, 1, true, false),
                new Conv("", 2, 4, 65, 6, 5, 2, 3, 2, 1, true, false),
                new Conv("grouped", 1, 8, 257, 8, 3, 1, 1, 1, 2, false, false),
                new Conv("depthwise", 2, 16, 257, 16, 7, 1, 3, 1, 16, true, false),
                new Conv("depthwise", 1, 33, 1025, 33, 3, 1, 1, 1, 33, false, false),
                new Conv("depthwise", 1, 8, 65, 8, 5, 2, 2, 1, 8, true, false),
                new Conv("depthwise", 1, 12, 100, 12, 3, 1, 3, 3, 12, false, false),
                new Conv("depthwise", 1, 10, 77, 10, 5, 1, 2, 1, 10, true, true),
                new Conv("pointwise", 1, 64, 129, 32, 1, 1, 0, 1, 1, true, false),
                new Conv("", 1, 32, 1025, 64, 3, 1, 1, 1, 1, true, false),
                new Conv("", 2, 5, 47, 7, 3, 1, 1, 1, 1, false, true),
                new Conv("wide padding", 1, 2, 5, 3, 4, 1, 3, 1, 1, true, false),
                new Conv("windowed, partial panels", 2, 7, 77, 13, 7, 1, 9, 3, 1, true, false),
                new Conv("windowed, channel slices", 1, 150, 45, 25, 11, 1, 5, 1, 1, false, false));
        for (Conv c : convs) {
            CaseDraft d = new CaseDraft();
            Tensor x = c.stridedInput()
                    ? d.permuted("x", new int[] {0, 2, 1}, c.b(), c.cin(), c.t())
                    : d.f32("x", c.b(), c.cin(), c.t());
            Tensor w = d.f32("w", new Values.Normal(0.5), c.cout(), c.cin() / c.groups(), c.k());
            Tensor bias = c.bias() ? d.f32("bias", c.cout()) : null;
            Tensor y = d.g.conv1d(x, w, bias, c.stride(), c.pad(), c.dil(), c.groups());
            out.add(d.done(y, "f32", describe(c, w), Bound.F32));
        }
    }

    private static void convTranspose1d(List<ConformanceCase> out) {
        record ConvT(
                long b,
                long cin,
                long t,
                long coutPerGroup,
                long k,
                int stride,
                int pad,
                int outPad,
                int dil,
                int groups,
                boolean bias,
                boolean stridedInput) {}
        List<ConvT> convs = List.of(
                new ConvT(1, 1, 1, 1, 1, 1, 0, 0, 1, 1, false, false),
                new ConvT(2, 4, 33, 3, 4, 2, 1, 0, 1, 1, true, false),
                new ConvT(1, 8, 65, 4, 8, 4, 2, 0, 1, 1, true, false),
                new ConvT(1, 6, 17, 5, 3, 3, 0, 1, 1, 1, false, false),
                new ConvT(1, 4, 20, 3, 3, 1, 2, 0, 2, 1, true, false),
                new ConvT(2, 8, 33, 2, 4, 2, 1, 0, 1, 2, true, false),
                new ConvT(1, 16, 65, 1, 4, 2, 1, 0, 1, 16, false, false),
                new ConvT(1, 32, 257, 16, 4, 2, 1, 0, 1, 1, true, false),
                new ConvT(1, 64, 129, 32, 16, 8, 4, 0, 1, 1, true, false),
                new ConvT(1, 6, 31, 4, 5, 2, 2, 0, 1, 1, false, true),
                new ConvT(1, 3, 10, 2, 3, 2, 1, 1, 2, 1, true, false));
        for (ConvT c : convs) {
            CaseDraft d = new CaseDraft();
            Tensor x = c.stridedInput()
                    ? d.permuted("x", new int[] {0, 2, 1}, c.b(), c.cin(), c.t())
                    : d.f32("x", c.b(), c.cin(), c.t());
            Tensor w = d.f32("w", new Values.Normal(0.5), c.cin(), c.coutPerGroup(), c.k());
            Tensor bias = c.bias() ? d.f32("bias", c.coutPerGroup() * c.groups()) : null;
            Tensor y = d.g.convTranspose1d(x, w, bias, c.stride(), c.pad(), c.outPad(), c.dil(), c.groups());
            String s = "x[" + c.b() + "," + c.cin() + "," + c.t() + "] w"
                    + dims(w.shape().dims()) + " s" + c.stride() + " p" + c.pad()
                    + (c.outPad() > 0 ? " op" + c.outPad() : "") + (c.dil() > 1 ? " d" + c.dil() : "")
                    + (c.groups() > 1 ? " g" + c.groups() : "") + (c.bias() ? " bias" : "")
                    + (c.stridedInput() ? " x stored [B,T,C]" : "");
            out.add(d.done(y, "f32", s, Bound.F32));
        }
    }

    private static String describe(Conv c, Tensor w) {
        return (c.what().isEmpty() ? "" : c.what() + " ") + "x[" + c.b() + "," + c.cin() + "," + c.t() + "] w"
                + dims(w.shape().dims())
                + " s" + c.stride() + " p" + c.pad() + (c.dil() > 1 ? " d" + c.dil() : "")
                + (c.groups() > 1 ? " g" + c.groups() : "")
                + (c.bias() ? " bias" : "") + (c.stridedInput() ? " x stored [B,T,C]" : "");
    }
}
