/**
 * The engine's contract, what a backend author implements against: tensors, graphs, the Backend SPI
 * and registry, capabilities, compiled execution, and the AudioEngine entry point. The float64
 * reference, the conformance cases, the weight and audio readers live in their own modules.
 */
module dev.audioengine.api {
    exports dev.audioengine.api;
    exports dev.audioengine.api.tensor;
    exports dev.audioengine.api.graph;
    exports dev.audioengine.api.spi;
    exports dev.audioengine.api.capability;
    exports dev.audioengine.api.registry;
    exports dev.audioengine.api.exec;

    uses dev.audioengine.api.spi.BackendProvider;
}
