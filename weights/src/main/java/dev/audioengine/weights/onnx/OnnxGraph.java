package dev.audioengine.weights.onnx;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** An ONNX GraphProto: nodes in file order, initializers, and the names of its inputs and outputs. */
public record OnnxGraph(
        String name, List<OnnxNode> nodes, List<OnnxTensor> initializers, List<String> inputs, List<String> outputs) {

    /** Visits this graph and every subgraph held in node attributes (If branches, Loop bodies), depth first. */
    public void forEachGraph(Consumer<OnnxGraph> visitor) {
        visitor.accept(this);
        for (OnnxNode n : nodes) {
            for (OnnxAttribute a : n.attributes()) {
                if (a.g() != null) a.g().forEachGraph(visitor);
                for (OnnxGraph g : a.graphs()) g.forEachGraph(visitor);
            }
        }
    }

    /** The value tensors of this graph's Constant nodes, keyed by their output name. */
    public List<OnnxTensor> constants() {
        List<OnnxTensor> out = new ArrayList<>();
        for (OnnxNode n : nodes) {
            if (!n.opType().equals("Constant")) continue;
            OnnxAttribute v = n.attribute("value");
            if (v != null && v.t() != null && !n.outputs().isEmpty()) {
                OnnxTensor t = v.t();
                out.add(new OnnxTensor(n.outputs().getFirst(), t.dataType(), t.dims(), t.bytes()));
            }
        }
        return out;
    }
}
