/**
 * Weights by PyTorch name over safetensors, GGUF and ONNX files: {@link dev.audioengine.blocks.weights.WeightScope}
 * serves tensors converted to a session's weight type, 8-bit ONNX weights are dequantized and folded at load, and
 * {@link dev.audioengine.blocks.weights.PreparedWeights} keeps the converted tensors in a memory-mapped cache.
 */
package dev.audioengine.blocks.weights;
