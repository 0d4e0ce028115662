/**
 * What the CUDA and HIP backends share: the kernel sources and the vendor-neutral op layer, which
 * reaches the vendor only through its tables (GpuRuntime, GpuKernelCompiler, GpuBlas). Makes no
 * downcalls itself (the vendor modules bind the native entry points), so it needs no native access.
 */
module dev.audioengine.gpu {
    requires dev.audioengine.api;

    // bench: CudaBench drives the executor directly
    exports dev.audioengine.gpu to dev.audioengine.backend.cuda, dev.audioengine.backend.hip, dev.audioengine.bench;
}
