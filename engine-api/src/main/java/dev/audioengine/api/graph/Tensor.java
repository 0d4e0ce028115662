package dev.audioengine.api.graph;

import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.Shape;
import java.util.Arrays;
import java.util.List;

/**
 * A node of a graph: the value an {@link Op} produces from its inputs. Views (slice, permute,
 * reshape) share the storage of their {@link #storage() root} and differ only in shape,
 * element strides and element offset, so kernels read every input through its strides.
 * An in-place write ({@link Op.WriteSlice}) shares the storage of the persistent tensor it
 * writes, too, but is a compute node, not a view. Created only by {@link GraphBuilder}.
 */
public final class Tensor {
    private final int id;
    private final Op op;
    private final List<Tensor> inputs;
    private final DType dtype;
    private final Shape shape;
    private final long[] strides;
    private final long offset;
    private final Tensor storage;
    private final Tensor version;
    private String name;

    Tensor(
            int id,
            Op op,
            List<Tensor> inputs,
            DType dtype,
            Shape shape,
            long[] strides,
            long offset,
            Tensor storage,
            Tensor version) {
        this.id = id;
        this.op = op;
        this.inputs = List.copyOf(inputs);
        this.dtype = dtype;
        this.shape = shape;
        this.strides = strides.clone();
        this.offset = offset;
        this.storage = storage == null ? this : storage;
        this.version = version == null ? this : version;
    }

    /**
     * The node's position in its builder, in creation order.
     *
     * @return 0 for the first node added; unique within one builder, and an input's id is always lower than its
     *     user's (creation order is a valid execution order)
     */
    public int id() {
        return id;
    }

    /**
     * What this node computes.
     *
     * @return the op, whose documentation gives the inputs' order, shapes and dtypes
     */
    public Op op() {
        return op;
    }

    /**
     * Inputs in the order the op documents; optional inputs that were not given are absent.
     *
     * @return an unmodifiable list, empty for leaves
     */
    public List<Tensor> inputs() {
        return inputs;
    }

    /**
     * One input.
     *
     * @param i the input's position, {@code 0 <= i < inputs().size()}
     * @return that input
     * @throws IndexOutOfBoundsException if there is no input {@code i} (an optional input that was not given is absent,
     *     so later ones move up)
     */
    public Tensor input(int i) {
        return inputs.get(i);
    }

    /**
     * The element type of this node's values.
     *
     * @return F32 for almost every op's result; a leaf's own dtype, I32 for argmax, the target of a cast
     */
    public DType dtype() {
        return dtype;
    }

    /**
     * The logical shape, known when the node is added (a graph is built for one input shape).
     *
     * @return the shape, outermost dimension first
     */
    public Shape shape() {
        return shape;
    }

    /**
     * Shorthand for {@code shape().rank()}.
     *
     * @return 0 to {@link Shape#MAX_RANK}
     */
    public int rank() {
        return shape.rank();
    }

    /**
     * Shorthand for {@code shape().dim(axis)}.
     *
     * @param axis 0 for the outermost, negative to count from the innermost ({@code -1} is the last)
     * @return the size along that axis
     * @throws IllegalArgumentException if the axis is out of range
     */
    public long dim(int axis) {
        return shape.dim(axis);
    }

    /**
     * Shorthand for {@code shape().elements()}.
     *
     * @return the number of logical elements (for a view, not the size of its storage)
     */
    public long elements() {
        return shape.elements();
    }

    /**
     * Strides in elements, one per axis.
     *
     * @return a fresh copy; the row-major {@link Shape#contiguousStrides()} for a computed node, anything a view made
     *     (a permute swaps them, a stepped slice multiplies one)
     */
    public long[] strides() {
        return strides.clone();
    }

    /**
     * The stride of one axis, in elements.
     *
     * @param axis 0 for the outermost, negative to count from the innermost
     * @return how many elements of the storage lie between neighbours along that axis
     * @throws IllegalArgumentException if the axis is out of range
     */
    public long stride(int axis) {
        return strides[shape.normalizeAxis(axis)];
    }

    /**
     * Element offset of this view's first value inside its storage root.
     *
     * @return 0 unless this is a slice (or a view of one) that starts past its root's first element; in elements, not
     *     bytes
     */
    public long offset() {
        return offset;
    }

    /**
     * The tensor that owns the memory this one lives in (itself unless this is a view).
     *
     * @return this node, the root a view aliases, or the {@link Op.State} leaf for a write and its views
     */
    public Tensor storage() {
        return storage;
    }

    /**
     * True for slice, permute and reshape nodes, which alias their input's storage and run no kernel.
     *
     * @return {@code op().isView()}
     */
    public boolean isView() {
        return op.isView();
    }

    /**
     * True when this node lives in a persistent tensor: the {@link Op.State} leaf, a write to it, or a view of either.
     *
     * @return whether this node's storage root is a state leaf
     */
    public boolean isPersistent() {
        return storage.op instanceof Op.State;
    }

    /**
     * For a persistent tensor, the node whose contents this one shows: the {@link Op.State} leaf
     * or the {@link Op.WriteSlice} that last wrote it before this view was taken; otherwise itself.
     *
     * @return the version this node reads; the builder rejects a read of a version that a later write replaced
     */
    public Tensor stateVersion() {
        return version;
    }

    /**
     * Bytes the storage root needs.
     *
     * @return the byte size of the whole root in its dtype; for a view, more than its own elements need
     */
    public long storageBytes() {
        return storage.dtype.bytesFor(storage.shape.elements());
    }

    /**
     * Row-major with no gaps (size-1 axes may have any stride).
     *
     * @return whether the elements are laid out as {@link Shape#contiguousStrides()} says (the offset is not
     *     considered); reshape copies a tensor that is not
     */
    public boolean isContiguous() {
        long expect = 1;
        for (int i = shape.rank() - 1; i >= 0; i--) {
            if (shape.dim(i) != 1 && strides[i] != expect) return false;
            expect *= shape.dim(i);
        }
        return true;
    }

    /**
     * The label given with {@link #named}, or by the builder to inputs and states.
     *
     * @return the name, or null for a node nobody named
     */
    public String name() {
        return name;
    }

    /**
     * Labels this node: the name appears in error messages and run diagnostics, and an output's name is the key of
     * {@link dev.audioengine.api.exec.CompiledGraph.Outputs#get(String)}. Changes this node (it is not a copy).
     *
     * @param name the label; null removes it. Naming an input or state does not change the name it binds by, which
     *     is its op's
     * @return this node, for chaining
     */
    public Tensor named(String name) {
        this.name = name;
        return this;
    }

    @Override
    public String toString() {
        return "#" + id + (name != null ? " '" + name + "'" : "") + " " + op.opName() + " " + dtype + " " + shape
                + (isContiguous() ? "" : " strides" + Arrays.toString(strides));
    }
}
