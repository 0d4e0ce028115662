/**
 * The graph API: a model describes its computation once per shape with a {@link
 * dev.audioengine.api.graph.GraphBuilder}, whose symbolic {@link dev.audioengine.api.graph.Tensor} values are combined
 * by the ops of {@link dev.audioengine.api.graph.Op}, grouped into op families; the finished {@link
 * dev.audioengine.api.graph.Graph} is compiled for a backend.
 */
package dev.audioengine.api.graph;
