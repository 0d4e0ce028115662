package dev.audioengine.backend.cpu.kernels;

/** What a bound kernel may use besides its tensors: the worker pool. */
public record KernelContext(WorkerPool pool) {}
