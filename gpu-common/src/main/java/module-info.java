/**
 * What the CUDA and HIP backends share: the kernel sources and the vendor-neutral op layer, which
 * reaches the vendor only through its tables (GpuRuntime, GpuKernelCompiler, GpuBlas). Makes no
 * downcalls itself (the vendor modules bind the native entry points), so it needs no native access.
 * <p>
 * Packages: the root holds the backend (GpuBackend, its GpuExecutable, GpuVendor, GpuException) and
 * GpuBenchHooks, the benchmarks' way past the Backend API; {@code ops} the op families and how a node is
 * bound to kernel launches; {@code exec} the steps a compiled segment enqueues, graph replay and the
 * profile; {@code runtime} the vendor runtime table, device buffers and memory pools; {@code compile} the
 * kernel sources, compilers and the on-disk kernel cache; {@code gemm} the GEMM library table.
 */
module dev.audioengine.gpu {
    requires dev.audioengine.api;

    // bench: CudaBench opens the CUDA backend and times it through GpuBenchHooks
    exports dev.audioengine.gpu to
            dev.audioengine.backend.cuda,
            dev.audioengine.backend.hip,
            dev.audioengine.bench;
    exports dev.audioengine.gpu.runtime to
            dev.audioengine.backend.cuda,
            dev.audioengine.backend.hip,
            dev.audioengine.bench;
    exports dev.audioengine.gpu.compile to
            dev.audioengine.backend.cuda,
            dev.audioengine.backend.hip,
            dev.audioengine.bench;
    exports dev.audioengine.gpu.gemm to
            dev.audioengine.backend.cuda,
            dev.audioengine.backend.hip,
            dev.audioengine.bench;
}
