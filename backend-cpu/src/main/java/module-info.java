/** The reference and fallback backend: pure Java, the Vector API on hot loops, a worker pool. */
module dev.audioengine.backend.cpu {
    requires dev.audioengine.api;
    requires jdk.incubator.vector;

    exports dev.audioengine.backend.cpu;

    provides dev.audioengine.api.spi.BackendProvider with
            dev.audioengine.backend.cpu.CpuBackendProvider;
}
