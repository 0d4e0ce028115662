package dev.audioengine.bench;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;

/**
 * The work one node does, for throughput figures: floating-point operations for the ops that
 * are compute-bound (a multiply-add counts two; an FFT of size N counts the customary 5·N·log2 N),
 * bytes read and written for everything else.
 *
 * @param amount FLOPs or bytes
 * @param flops  true for FLOPs (report GFLOP/s), false for bytes (report GB/s)
 */
public record OpCost(double amount, boolean flops) {

    public static OpCost of(Tensor n) {
        return switch (n.op()) {
            case Op.MatMul m -> flops(2.0 * n.elements() * n.input(0).dim(-1));
            case Op.Conv1d c ->
                flops(2.0 * n.elements() * n.input(1).dim(1) * n.input(1).dim(2));
            case Op.ConvTranspose1d c ->
                flops(2.0
                        * n.input(0).elements()
                        * n.input(1).dim(1)
                        * n.input(1).dim(2));
            case Op.Attention a -> flops(4.0 * n.elements() * n.input(1).dim(2));
            case Op.Lstm l -> {
                long h = l.hidden(), in = n.input(0).dim(2);
                yield flops(2.0 * n.input(0).dim(0) * n.input(0).dim(1) * 4 * h * (in + h));
            }
            case Op.Stft s -> flops(fft(s.nFft()) * n.dim(0) * n.dim(2));
            case Op.Istft s ->
                flops(fft(s.nFft()) * n.input(0).dim(0) * n.input(0).dim(2));
            // only the looked-up rows of the table are read
            case Op.GetRows g ->
                new OpCost(
                        n.input(0).dtype().bytesFor(n.elements())
                                + 4.0 * n.elements()
                                + 4.0 * n.input(1).elements(),
                        false);
            default -> {
                double bytes = n.dtype().bytesFor(n.elements());
                for (Tensor in : n.inputs()) bytes += in.dtype().bytesFor(in.elements());
                yield new OpCost(bytes, false);
            }
        };
    }

    private static OpCost flops(double f) {
        return new OpCost(f, true);
    }

    private static double fft(int n) {
        return 5.0 * n * (Math.log(n) / Math.log(2));
    }

    /** "GFLOP/s" or "GB/s". */
    public String unit() {
        return flops ? "GFLOP/s" : "GB/s";
    }

    /** Throughput in {@link #unit()} for one run taking {@code seconds}. */
    public double rate(double seconds) {
        return amount / seconds / 1e9;
    }
}
