/** Weight files: safetensors and GGUF (memory-mapped, validated), ONNX initializers and Constant nodes. */
module dev.audioengine.weights {
    requires transitive dev.audioengine.api;

    exports dev.audioengine.weights;
    exports dev.audioengine.weights.onnx;
}
