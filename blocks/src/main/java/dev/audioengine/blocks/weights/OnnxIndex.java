package dev.audioengine.blocks.weights;

import dev.audioengine.weights.onnx.OnnxGraph;
import dev.audioengine.weights.onnx.OnnxModel;
import dev.audioengine.weights.onnx.OnnxNode;
import dev.audioengine.weights.onnx.OnnxTensor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where every value of an ONNX model comes from and goes to, over the main graph and every
 * subgraph (optimum's merged decoders keep their nodes inside If branches and their weights in
 * the outer graph, so a weight and the nodes that use it live in different graphs).
 */
final class OnnxIndex {
    private final Map<String, OnnxTensor> stored = new LinkedHashMap<>(); // initializers and Constant outputs
    private final Map<String, OnnxNode> producers = new LinkedHashMap<>();
    private final Map<String, List<OnnxNode>> consumers = new LinkedHashMap<>();
    private final Map<String, OnnxNode> nodesByName = new LinkedHashMap<>();

    OnnxIndex(OnnxModel model) {
        model.graph().forEachGraph(this::add);
    }

    private void add(OnnxGraph g) {
        for (OnnxTensor t : g.initializers()) stored.putIfAbsent(t.name(), t);
        for (OnnxTensor t : g.constants()) stored.putIfAbsent(t.name(), t);
        for (OnnxNode n : g.nodes()) {
            if (!n.name().isEmpty()) nodesByName.putIfAbsent(n.name(), n);
            for (String out : n.outputs()) if (!out.isEmpty()) producers.putIfAbsent(out, n);
            for (String in : n.inputs())
                if (!in.isEmpty())
                    consumers.computeIfAbsent(in, k -> new ArrayList<>()).add(n);
        }
    }

    /** The initializer or Constant-node value of that name, or null. */
    OnnxTensor stored(String name) {
        return stored.get(name);
    }

    /** Names of every initializer and Constant output, in file order. */
    List<String> storedNames() {
        return List.copyOf(stored.keySet());
    }

    /** The node producing {@code value}, or null for graph inputs and stored tensors. */
    OnnxNode producer(String value) {
        return stored.containsKey(value) ? null : producers.get(value);
    }

    /** The nodes reading {@code value}, in every graph. */
    List<OnnxNode> consumers(String value) {
        return consumers.getOrDefault(value, List.of());
    }

    /** The first node of that name in any graph (a merged decoder repeats names in both branches, over the same weights). */
    OnnxNode node(String name) {
        return nodesByName.get(name);
    }

    int nodeCount() {
        return nodesByName.size();
    }

    /** Every node name, first occurrence order. */
    List<String> nodeNames() {
        return List.copyOf(nodesByName.keySet());
    }
}
