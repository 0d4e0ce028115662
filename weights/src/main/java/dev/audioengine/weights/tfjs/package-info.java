/**
 * TensorFlow.js model files as a weight container: {@code model.json} (format, topology, weight manifest) and its
 * binary shards. The engine reads the named tensors (and the graph's nodes, to check what a family hard codes); it
 * never interprets the topology.
 */
package dev.audioengine.weights.tfjs;
