package dev.audioengine.gpu.ops;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;

/** How one op family runs on the device: which nodes it can compute, and the steps that compute one. */
interface GpuOp {
    /** The {@link Op.Family} whose ops this computes (every op it is handed has this family). */
    Op.Family family();

    /** Whether this family computes {@code node} on a device with these limits. */
    boolean supports(Tensor node, DeviceLimits limits);

    /** Appends the launches that compute {@code node} to {@code b}; called once per compiled segment. */
    void bind(Tensor node, Binding b);
}
