package dev.audioengine.gpu.ops;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;

/** stft, istft (DEVICE_ISTFT) and magnitude: kernels/spectral.cu. */
final class SpectralOps implements GpuOp {
    private static final String SRC = "spectral";

    @Override
    public Op.Family family() {
        return Op.Family.SPECTRAL;
    }

    @Override
    public boolean supports(Tensor node, DeviceLimits limits) {
        return node.inputs().stream().allMatch(t -> t.dtype() == DType.F32);
    }

    @Override
    public void bind(Tensor node, Binding b) {
        long y = b.ptr(node), n = node.elements();
        switch (node.op()) {
            case Op.Stft s -> {
                Tensor x = node.input(0), w = node.input(1);
                b.grid1d(
                        SRC,
                        "ae_stft",
                        n / 2,
                        b.args()
                                .ptr(y)
                                .ptr(b.ptr(x))
                                .desc(TensorDesc.of(x))
                                .ptr(b.ptr(w))
                                .i64(w.stride(0))
                                .i64(x.dim(0))
                                .i32(s.nFft())
                                .i32(s.hop())
                                .i64(node.dim(2))
                                .i32(s.center() ? s.nFft() / 2 : 0));
            }
            case Op.Istft s -> {
                Tensor spec = node.input(0), w = node.input(1);
                b.grid1d(
                        SRC,
                        "ae_istft",
                        n,
                        b.args()
                                .ptr(y)
                                .ptr(b.ptr(spec))
                                .desc(TensorDesc.of(spec))
                                .ptr(b.ptr(w))
                                .i64(w.stride(0))
                                .i64(node.dim(0))
                                .i64(s.length())
                                .i32(s.nFft())
                                .i32(s.hop())
                                .i32(s.center() ? s.nFft() / 2 : 0));
            }
            case Op.Magnitude m -> {
                Tensor z = node.input(0);
                b.grid1d(
                        SRC,
                        "ae_magnitude",
                        n,
                        b.args().i64(n).ptr(y).ptr(b.ptr(z)).desc(TensorDesc.rows(z, -1)));
            }
            default -> throw new IllegalArgumentException("not a spectral op: " + node);
        }
    }
}
