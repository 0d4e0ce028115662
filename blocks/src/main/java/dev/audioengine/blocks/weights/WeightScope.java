package dev.audioengine.blocks.weights;

import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;

/**
 * A view of a {@link WeightStore} under a name prefix, the one way blocks read weights:
 * {@code scope.child("decoder.layers.0").tensor("self_attn.q_proj.weight")} reads
 * {@code decoder.layers.0.self_attn.q_proj.weight}, from a safetensors or GGUF tensor of that
 * name or from an ONNX file (see the store's ONNX rules: stored names, 8-bit weights
 * dequantized, anonymous weights found through the node named after their module). Values are
 * in PyTorch's layout (Linear weights [out, in]). The tensors belong to the store.
 */
public final class WeightScope {
    private final WeightStore store;
    private final String prefix;

    WeightScope(WeightStore store, String prefix) {
        this.store = store;
        this.prefix = prefix;
    }

    /** The scope of a submodule: names below it are read relative to {@code prefix.name}. */
    public WeightScope child(String name) {
        if (name.isEmpty()) throw new IllegalArgumentException("empty child scope name under '" + prefix + "'");
        return new WeightScope(store, full(name));
    }

    /** The child scope of a list element: {@code child("layers", 3)} is {@code child("layers.3")}. */
    public WeightScope child(String name, int index) {
        return child(name + "." + index);
    }

    /** The value as F32 (norm scales, biases, conv kernels: anything read at full precision). */
    public HostTensor tensor(String name) {
        return store.f32(full(name));
    }

    /**
     * The value in the session's weight type (for matmul weights): F16, BF16 or Q8_0 when the
     * session asks for it, where the conversion rule admits the tensor's shape.
     */
    public HostTensor weight(String name) {
        return store.weight(full(name));
    }

    /** {@link #tensor}, or null when the file has no such value (an optional bias). */
    public HostTensor optionalTensor(String name) {
        return has(name) ? tensor(name) : null;
    }

    public boolean has(String name) {
        return store.has(full(name));
    }

    /** The full name of {@code name} in this scope. */
    public String full(String name) {
        return prefix.isEmpty() ? name : prefix + "." + name;
    }

    public String prefix() {
        return prefix;
    }

    public DType weightType() {
        return store.weightType();
    }

    public WeightStore store() {
        return store;
    }

    @Override
    public String toString() {
        return "WeightScope['" + prefix + "' in " + store.location() + "]";
    }
}
