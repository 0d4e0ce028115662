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

    public int id() {
        return id;
    }

    public Op op() {
        return op;
    }

    /** Inputs in the order the op documents; optional inputs that were not given are absent. */
    public List<Tensor> inputs() {
        return inputs;
    }

    public Tensor input(int i) {
        return inputs.get(i);
    }

    public DType dtype() {
        return dtype;
    }

    public Shape shape() {
        return shape;
    }

    public int rank() {
        return shape.rank();
    }

    public long dim(int axis) {
        return shape.dim(axis);
    }

    public long elements() {
        return shape.elements();
    }

    /** Strides in elements, one per axis. */
    public long[] strides() {
        return strides.clone();
    }

    public long stride(int axis) {
        return strides[shape.normalizeAxis(axis)];
    }

    /** Element offset of this view's first value inside its storage root. */
    public long offset() {
        return offset;
    }

    /** The tensor that owns the memory this one lives in (itself unless this is a view). */
    public Tensor storage() {
        return storage;
    }

    /** True for slice, permute and reshape nodes, which alias their input's storage and run no kernel. */
    public boolean isView() {
        return op.isView();
    }

    /** True when this node lives in a persistent tensor: the {@link Op.State} leaf, a write to it, or a view of either. */
    public boolean isPersistent() {
        return storage.op instanceof Op.State;
    }

    /**
     * For a persistent tensor, the node whose contents this one shows: the {@link Op.State} leaf
     * or the {@link Op.WriteSlice} that last wrote it before this view was taken; otherwise itself.
     */
    public Tensor stateVersion() {
        return version;
    }

    /** Bytes the storage root needs. */
    public long storageBytes() {
        return storage.dtype.bytesFor(storage.shape.elements());
    }

    /** Row-major with no gaps (size-1 axes may have any stride). */
    public boolean isContiguous() {
        long expect = 1;
        for (int i = shape.rank() - 1; i >= 0; i--) {
            if (shape.dim(i) != 1 && strides[i] != expect) return false;
            expect *= shape.dim(i);
        }
        return true;
    }

    public String name() {
        return name;
    }

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
