/**
 * ONNX models as weight files: a protobuf reader for the ONNX model format that exposes the graph's initializers,
 * Constant nodes and node attributes, so model families can read weights from ONNX exports without ONNX Runtime.
 */
package dev.audioengine.weights.onnx;
