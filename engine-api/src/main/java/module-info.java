/** The engine's contracts: tensors, graphs, the Backend SPI and registry, capabilities, audio and weight I/O. */
module dev.audioengine.api {
    // the resampler's inner product uses the Vector API when the module is resolved (the CPU backend requires it)
    requires static jdk.incubator.vector;

    exports dev.audioengine.api;
    exports dev.audioengine.api.tensor;
    exports dev.audioengine.api.graph;
    exports dev.audioengine.api.spi;
    exports dev.audioengine.api.capability;
    exports dev.audioengine.api.registry;
    exports dev.audioengine.api.exec;
    exports dev.audioengine.api.reference;
    exports dev.audioengine.api.audio;
    exports dev.audioengine.api.weights.onnx;
    exports dev.audioengine.api.weights;
    exports dev.audioengine.api.conformance;

    uses dev.audioengine.api.spi.BackendProvider;
}
