/** The engine's contracts: tensors, graphs, the Backend SPI and registry, capabilities, audio and weight I/O. */
module dev.audioengine.api {
    requires java.management; // OpBenchmark waits for the JIT to go quiet
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
