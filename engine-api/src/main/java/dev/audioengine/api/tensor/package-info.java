/**
 * Tensors on the host: element types ({@link dev.audioengine.api.tensor.DType}, including the block-quantized Q8_0 and
 * Q4_0 formats), shapes, host tensors that carry data into and out of a graph, and the half-float and
 * block-quantization conversions every backend shares.
 */
package dev.audioengine.api.tensor;
