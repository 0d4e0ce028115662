package dev.audioengine.backend.cpu.kernels;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;

/**
 * The CPU kernel of one op, every kind of it (one BinaryKernel for add, mul, ...). {@link #bind}
 * runs once per compiled graph: it checks and precomputes everything shape-dependent and returns
 * the work for one run, which must not allocate per element.
 */
public interface CpuKernel {
    boolean supports(Tensor node);

    Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx);

    /**
     * True when {@code t} views a graph constant, whose values are final once the graph is
     * compiled (see Backend#compile): {@link #bind} may derive data from it once.
     */
    static boolean isConstant(Tensor t) {
        return t.storage().op() instanceof Op.Constant;
    }
}
