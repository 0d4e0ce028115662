package dev.audioengine.backend.cpu.threads;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;

/**
 * How many of the pool's threads one op splits over, from the work it does: an op gets one more
 * thread for every {@link #NANOS_PER_THREAD} of estimated single-thread time, up to the pool's
 * size, so small ops (every op of a streaming model such as a Silero VAD chunk) run on the
 * calling thread and only large GEMMs, convolutions and sweeps over megabytes split.
 * <p>
 * A split costs a hand-off to a worker and back: little to a worker still spinning from the
 * last split ({@link SpinningWorkers}), a wake-up through the scheduler to a parked one, and up
 * to a time slice where other processes hold the cores; several kernels split inside a run more
 * than once (the GEMM per k slice). Each thread's share must be large against
 * that. The share was chosen with {@code bench vad} on a loaded 2-vCPU machine: a smaller one split
 * Silero's batched offline convolutions and made offline slower than one thread, and a smaller
 * one with the spinning workers gained nothing beyond the noise on Moonshine, so the rule stayed
 * (docs/PERFORMANCE-cpu.md, "Threads per op", has the figures).
 * The time estimate is deliberately simple: FLOPs at {@link #FLOPS_PER_NANO} for the ops bound
 * by arithmetic, bytes read and written at {@link #BYTES_PER_NANO} for the rest; both rates are
 * single-core figures of this backend's kernels (docs/PERFORMANCE-cpu.md, "Threads per op").
 * Kernels keep their own finer rules inside the share they are given (the GEMM keeps products
 * under 64 K multiply-adds on one thread, an LSTM splits a time step only when it is large).
 */
public final class OpThreads {
    /** Estimated single-thread time each thread must get before an op splits (see above). */
    static final long NANOS_PER_THREAD = 200_000;
    /** Single-core rate of the arithmetic-bound kernels (GEMM, convolutions, attention, LSTM, FFT), in FLOPs per ns. */
    static final double FLOPS_PER_NANO = 40;
    /** Single-core rate of the memory-bound kernels (elementwise, layout, norms), in bytes per ns. */
    static final double BYTES_PER_NANO = 8;

    private OpThreads() {}

    /** Threads for {@code node} on a pool of {@code poolThreads}: between 1 and poolThreads. */
    public static int choose(Tensor node, int poolThreads) {
        long share = (long) (estimatedNanos(node) / NANOS_PER_THREAD);
        return (int) Math.max(1, Math.min(poolThreads, share));
    }

    /** Single-thread time estimate of one run of {@code node}, in nanoseconds. */
    static double estimatedNanos(Tensor node) {
        double flops = flops(node);
        if (flops >= 0) return flops / FLOPS_PER_NANO;
        double bytes = node.dtype().bytesFor(node.elements());
        for (Tensor in : node.inputs()) bytes += in.dtype().bytesFor(in.elements());
        return bytes / BYTES_PER_NANO;
    }

    /** FLOPs of the ops bound by arithmetic (a multiply-add counts two), -1 for the others. */
    private static double flops(Tensor n) {
        return switch (n.op()) {
            case Op.MatMul m -> 2.0 * n.elements() * n.input(0).dim(-1);
            case Op.Conv1d c ->
                2.0 * n.elements() * n.input(1).dim(1) * n.input(1).dim(2);
            case Op.ConvTranspose1d c ->
                2.0 * n.input(0).elements() * n.input(1).dim(1) * n.input(1).dim(2);
            case Op.Attention a -> 4.0 * n.elements() * n.input(1).dim(-2);
            case Op.Lstm l ->
                2.0
                        * n.input(0).dim(0)
                        * n.input(0).dim(1)
                        * 4
                        * l.hidden()
                        * (n.input(0).dim(2) + l.hidden());
            case Op.Stft s -> fft(s.nFft()) * n.dim(0) * n.dim(2);
            case Op.Istft s -> fft(s.nFft()) * n.input(0).dim(0) * n.input(0).dim(2);
            default -> -1;
        };
    }

    /** The customary 5·N·log2 N of one transform of size N (the CPU's STFT is an FFT). */
    private static double fft(int n) {
        return 5.0 * n * (Math.log(n) / Math.log(2));
    }
}
