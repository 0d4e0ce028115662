package dev.audioengine.gpu;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;

/**
 * In-place writes into persistent tensors (kernels/layout.cu ae_write_slice) and the length mask
 * of a fixed-capacity cache (kernels/sequence.cu ae_key_mask). The write position and the length
 * are read by the kernel from device memory, so a captured graph replays for every position.
 */
final class CacheOps implements GpuOp {
    @Override
    public boolean supports(Tensor node, DeviceLimits limits) {
        return switch (node.op()) {
            case Op.WriteSlice w -> node.dtype() == DType.F32 && node.input(1).dtype() == DType.F32 && node.rank() <= TensorDesc.RANK;
            case Op.KeyMask k -> true;
            default -> false;
        };
    }

    @Override
    public void bind(Tensor node, Binding b) {
        switch (node.op()) {
            case Op.WriteSlice w -> {
                Tensor src = node.input(1);
                int axis = w.axis() + TensorDesc.RANK - node.rank();
                b.grid1d("layout", "ae_write_slice", src.elements(), b.args().i64(src.elements()).i32(axis).ptr(b.ptrOrNull(node, 2))
                        .ptr(b.ptr(node)).desc(TensorDesc.of(node)).ptr(b.ptr(src)).desc(TensorDesc.of(src)));
            }
            case Op.KeyMask k -> b.grid1d("sequence", "ae_key_mask", node.elements(), b.args().i32(k.causal() ? 1 : 0)
                    .i64(node.dim(0)).i64(node.dim(1)).ptr(b.ptr(node.input(0))).ptr(b.ptr(node)));
            default -> throw new IllegalArgumentException("not a cache op: " + node);
        }
    }
}
