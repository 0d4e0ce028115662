package dev.audioengine.blocks;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Op.PadMode;
import dev.audioengine.api.graph.Tensor;

/**
 * A batched decoder step's two reshapings between the step's {@code width} sequences and its caches' {@code slots}
 * (Moonshine's and Whisper's batches): the step runs its products on the first width rows, its cache writes and its
 * attention on every slot. Padding the small new keys, values and queries to the slots, rather than slicing the caches
 * to the width, keeps the caches whole: a backend that copies a slice of a cache into a tensor of its own would copy
 * every cross cache on every step (measured on the CPU: +20 % per lone request).
 */
public final class CacheSlots {
    private CacheSlots() {}

    /**
     * [W, ...] padded with zeros to [slots, ...] (what a per-slot write_slice and an all-slot attention take); as it is
     * when the step spans every slot, so that a one-slot step adds no copy to the single-stream path. The pad (and
     * write_slice, where nothing is padded) reads a view directly, as every backend does (conformance: strided
     * sources): a copy first would be one more kernel per use, four a layer, in a step bound by its kernels' count on a
     * GPU.
     *
     * @param g     the graph
     * @param t     one row per sequence of the step, [W, ...]
     * @param slots the caches' leading size, at least W
     * @return [slots, ...]
     */
    public static Tensor toSlots(GraphBuilder g, Tensor t, int slots) {
        if (t.dim(0) == slots) return t;
        long[] none = new long[t.rank()], after = new long[t.rank()];
        after[0] = slots - t.dim(0);
        return g.pad(t, PadMode.ZERO, none, after, 0f);
    }

    /**
     * The first {@code width} rows of attention's [slots, H, 1, hd] output (all of it when the step spans every slot):
     * a leading slice of a contiguous tensor is itself contiguous, so the output projection reads it without a copy.
     *
     * @param g        the graph
     * @param attended attention's output over every slot
     * @param width    the step's sequences
     * @return [width, H, 1, hd]
     */
    public static Tensor firstSlots(GraphBuilder g, Tensor attended, int width) {
        return attended.dim(0) == width ? attended : g.slice(attended, 0, 0, width);
    }
}
