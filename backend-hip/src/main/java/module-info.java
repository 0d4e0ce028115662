/** The ROCm backend: FFM bindings to the vendor runtime; loads nothing native until probed. */
module dev.audioengine.backend.hip {
    requires dev.audioengine.api;
    requires dev.audioengine.gpu;

    exports dev.audioengine.backend.hip;

    provides dev.audioengine.api.spi.BackendProvider with
            dev.audioengine.backend.hip.HipBackendProvider;
    provides dev.audioengine.api.spi.KernelCompiler with
            dev.audioengine.backend.hip.HipKernelCompiler;
}
