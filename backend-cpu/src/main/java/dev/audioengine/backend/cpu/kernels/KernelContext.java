package dev.audioengine.backend.cpu.kernels;

/** What a bound kernel may use besides its tensors: the worker pool, and the backend's cache of packed constant weights. */
public record KernelContext(WorkerPool pool, PanelCache panels) {
    /** With a cache of its own (kernels bound on their own, in tests). */
    public KernelContext(WorkerPool pool) { this(pool, new PanelCache()); }
}
