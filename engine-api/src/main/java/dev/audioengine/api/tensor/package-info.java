/**
 * Tensors on the host: element types ({@link dev.audioengine.api.tensor.DType}, including ggml's block-quantized Q8_0,
 * Q4_0, Q5_0, Q5_1 and Q4_1 formats and the k-quants Q6_K, Q4_K, Q5_K, Q3_K, Q2_K), shapes, host tensors that carry data into and out of a graph, and the half-float and
 * block-quantization conversions every backend shares.
 */
package dev.audioengine.api.tensor;
