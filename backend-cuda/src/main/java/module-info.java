/** The CUDA backend: FFM bindings to the vendor runtime; loads nothing native until probed. */
module dev.audioengine.backend.cuda {
    requires dev.audioengine.api;
    requires dev.audioengine.gpu;

    exports dev.audioengine.backend.cuda;

    provides dev.audioengine.api.spi.BackendProvider with
            dev.audioengine.backend.cuda.CudaBackendProvider;
}
