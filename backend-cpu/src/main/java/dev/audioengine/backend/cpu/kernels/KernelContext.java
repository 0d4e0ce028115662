package dev.audioengine.backend.cpu.kernels;

import dev.audioengine.backend.cpu.kernels.linear.PanelCache;
import dev.audioengine.backend.cpu.threads.WorkerPool;

/**
 * What a bound kernel may use besides its tensors: the worker pool, the backend's cache of packed constant weights,
 * and the scratch arrays its compiled run shares.
 */
public record KernelContext(WorkerPool pool, PanelCache panels, RunScratch scratch) {
    /** With a cache and scratch of its own (kernels bound on their own, in tests). */
    public KernelContext(WorkerPool pool) {
        this(pool, new PanelCache(), new RunScratch());
    }
}
