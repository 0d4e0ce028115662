/** Weight files: safetensors and GGUF (memory-mapped, validated), ONNX initializers and Constant nodes, TensorFlow.js weight manifests. */
module dev.audioengine.weights {
    requires transitive dev.audioengine.api;
    requires com.fasterxml.jackson.core; // StrictJson, the engine's one JSON reader

    exports dev.audioengine.weights;
    exports dev.audioengine.weights.onnx;
    exports dev.audioengine.weights.tfjs;
    exports dev.audioengine.weights.json to
            dev.audioengine.models;
}
