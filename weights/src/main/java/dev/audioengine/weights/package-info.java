/**
 * Weight files: safetensors and GGUF readers that memory-map the file and validate every header field against hostile
 * input, a common view of their tensors ({@link dev.audioengine.weights.WeightFile}), and the conversions of stored
 * element types.
 */
package dev.audioengine.weights;
