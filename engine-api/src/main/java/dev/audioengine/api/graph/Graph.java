package dev.audioengine.api.graph;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * A frozen graph: the nodes its outputs depend on, in execution order (creation order is
 * topological because a node can only use nodes created before it).
 */
public final class Graph {
    private final List<Tensor> nodes;
    private final List<Tensor> inputs;
    private final List<Tensor> outputs;

    private Graph(List<Tensor> nodes, List<Tensor> inputs, List<Tensor> outputs) {
        this.nodes = nodes;
        this.inputs = inputs;
        this.outputs = outputs;
    }

    static Graph of(List<Tensor> all, List<Tensor> outputs) {
        BitSet needed = new BitSet(all.size());
        for (Tensor o : outputs) needed.set(o.id());
        for (int i = all.size() - 1; i >= 0; i--) {
            if (!needed.get(i)) continue;
            for (Tensor in : all.get(i).inputs()) needed.set(in.id());
        }
        List<Tensor> nodes = new ArrayList<>();
        List<Tensor> inputs = new ArrayList<>();
        for (Tensor t : all) {
            if (!needed.get(t.id())) continue;
            nodes.add(t);
            if (t.op() instanceof Op.Input) inputs.add(t);
        }
        return new Graph(List.copyOf(nodes), List.copyOf(inputs), outputs);
    }

    /** Every node the outputs need, leaves included, in execution order. */
    public List<Tensor> nodes() { return nodes; }

    public List<Tensor> inputs() { return inputs; }

    public List<Tensor> outputs() { return outputs; }

    public Tensor input(String name) {
        for (Tensor t : inputs) if (((Op.Input) t.op()).name().equals(name)) return t;
        throw new IllegalArgumentException("graph has no input '" + name + "'; inputs: "
                + inputs.stream().map(Tensor::name).toList());
    }

    /** Nodes that run a kernel: not inputs, constants or views. */
    public List<Tensor> computeNodes() {
        return nodes.stream().filter(t -> !(t.op() instanceof Op.Input) && !(t.op() instanceof Op.Constant) && !t.op().isView()).toList();
    }
}
