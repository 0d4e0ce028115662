package dev.audioengine.api.graph;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * A frozen graph: the nodes its outputs depend on, and every write into a persistent tensor
 * (a side effect the next run sees, needed even when no output reads it), in execution order
 * (creation order is topological because a node can only use nodes created before it).
 */
public final class Graph {
    private final List<Tensor> nodes;
    private final List<Tensor> inputs;
    private final List<Tensor> outputs;
    private final List<Tensor> states;

    private Graph(List<Tensor> nodes, List<Tensor> inputs, List<Tensor> outputs, List<Tensor> states) {
        this.nodes = nodes;
        this.inputs = inputs;
        this.outputs = outputs;
        this.states = states;
    }

    static Graph of(List<Tensor> all, List<Tensor> outputs) {
        BitSet needed = new BitSet(all.size());
        for (Tensor o : outputs) needed.set(o.id());
        for (Tensor t : all) if (t.op() instanceof Op.WriteSlice) needed.set(t.id());
        for (int i = all.size() - 1; i >= 0; i--) {
            if (!needed.get(i)) continue;
            for (Tensor in : all.get(i).inputs()) needed.set(in.id());
        }
        List<Tensor> nodes = new ArrayList<>();
        List<Tensor> inputs = new ArrayList<>();
        List<Tensor> states = new ArrayList<>();
        for (Tensor t : all) {
            if (!needed.get(t.id())) continue;
            nodes.add(t);
            if (t.op() instanceof Op.Input) inputs.add(t);
            if (t.op() instanceof Op.State) states.add(t);
        }
        return new Graph(List.copyOf(nodes), List.copyOf(inputs), outputs, List.copyOf(states));
    }

    /**
     * Every node the outputs need, leaves included, in execution order.
     *
     * @return an unmodifiable list; nodes that neither an output nor a state write needs are left out
     */
    public List<Tensor> nodes() {
        return nodes;
    }

    /**
     * The {@link Op.Input} leaves a run must be given, in creation order.
     *
     * @return an unmodifiable list; an input that no output needs is not in it
     */
    public List<Tensor> inputs() {
        return inputs;
    }

    /**
     * The results a run returns.
     *
     * @return an unmodifiable list in the order given to {@link GraphBuilder#build}
     */
    public List<Tensor> outputs() {
        return outputs;
    }

    /**
     * The persistent tensors ({@link Op.State} leaves) the graph reads or writes; each must be bound when it is
     * compiled.
     *
     * @return an unmodifiable list in creation order, empty for a stateless graph
     */
    public List<Tensor> states() {
        return states;
    }

    /**
     * The state leaf bound to the persistent tensor of this name.
     *
     * @param name the name given to {@link GraphBuilder#state}
     * @return the state leaf, of the tensor's dtype and shape
     * @throws IllegalArgumentException if the graph has no such state; the message lists those it has
     */
    public Tensor state(String name) {
        for (Tensor t : states) if (((Op.State) t.op()).name().equals(name)) return t;
        throw new IllegalArgumentException("graph has no state '" + name + "'; states: "
                + states.stream().map(Tensor::name).toList());
    }

    /**
     * The node holding each state's contents at the end of a run (its last write, or the leaf when nothing writes
     * it), by state leaf.
     *
     * @return a new map, in {@link #states()} order, from each state leaf to its last version
     */
    public java.util.Map<Tensor, Tensor> finalStateVersions() {
        java.util.Map<Tensor, Tensor> last = new java.util.LinkedHashMap<>();
        for (Tensor s : states) last.put(s, s);
        for (Tensor t : nodes) if (t.op() instanceof Op.WriteSlice) last.put(t.storage(), t);
        return last;
    }

    /**
     * The input leaf with this name.
     *
     * @param name the name given to {@link GraphBuilder#input}
     * @return the leaf, whose dtype and shape the run's value must have
     * @throws IllegalArgumentException if the graph has no such input (or none the outputs need); the message lists
     *     those it has
     */
    public Tensor input(String name) {
        for (Tensor t : inputs) if (((Op.Input) t.op()).name().equals(name)) return t;
        throw new IllegalArgumentException("graph has no input '" + name + "'; inputs: "
                + inputs.stream().map(Tensor::name).toList());
    }

    /**
     * Nodes that run a kernel: not inputs, constants, states or views.
     *
     * @return a new list in execution order
     */
    public List<Tensor> computeNodes() {
        return nodes.stream().filter(t -> !isLeaf(t) && !t.op().isView()).toList();
    }

    /**
     * Inputs, constants and states: nodes whose value comes from outside the graph.
     *
     * @param t a node of any graph
     * @return whether its op is {@link Op.Input}, {@link Op.Constant} or {@link Op.State}
     */
    public static boolean isLeaf(Tensor t) {
        return t.op() instanceof Op.Input || t.op() instanceof Op.Constant || t.op() instanceof Op.State;
    }
}
