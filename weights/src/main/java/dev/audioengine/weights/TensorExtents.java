package dev.audioengine.weights;

import dev.audioengine.api.tensor.DType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/** Size and placement checks shared by the readers: overflow-safe byte sizes, no overlapping data. */
final class TensorExtents {
    private TensorExtents() {}

    /**
     * Bytes a tensor of {@code dtype} with outermost-first {@code dims} occupies; rejects negative
     * dimensions, element counts or byte sizes beyond 2^63-1, and block types whose rows are not
     * whole blocks.
     */
    static long byteSize(Path file, long at, String name, DType dtype, long[] dims) throws WeightFormatException {
        boolean empty = false;
        for (long d : dims) {
            if (d < 0)
                throw new WeightFormatException(
                        file,
                        at,
                        "tensor '" + name + "' has a negative dimension in " + Arrays.toString(dims)
                                + " (or one of 2^63 or more)");
            if (d == 0) empty = true;
        }
        long elements = 1;
        if (empty) {
            elements = 0;
        } else {
            for (long d : dims) {
                if (elements > Long.MAX_VALUE / d) {
                    throw new WeightFormatException(
                            file,
                            at,
                            "element count of tensor '" + name + "' with shape " + Arrays.toString(dims)
                                    + " overflows a 64-bit count");
                }
                elements *= d;
            }
        }
        if (dtype.isQuantized()) {
            if (dims.length == 0) {
                throw new WeightFormatException(
                        file,
                        at,
                        "tensor '" + name + "' is a " + dtype
                                + " scalar; block types need a last dimension that is a multiple of "
                                + dtype.blockSize());
            }
            long row = dims[dims.length - 1];
            if (row % dtype.blockSize() != 0) {
                throw new WeightFormatException(
                        file,
                        at,
                        "tensor '" + name + "' is " + dtype + " with rows of " + row + " values; " + dtype
                                + " rows must be a multiple of " + dtype.blockSize());
            }
        }
        long blocks = elements / dtype.blockSize();
        if (blocks > Long.MAX_VALUE / dtype.blockBytes()) {
            throw new WeightFormatException(
                    file,
                    at,
                    "byte size of tensor '" + name + "' (" + dtype + " " + Arrays.toString(dims)
                            + ") overflows a 64-bit size");
        }
        return blocks * dtype.blockBytes();
    }

    /** Rejects tensors whose data ranges share bytes; empty tensors occupy nothing. */
    static void checkNoOverlap(Path file, Collection<TensorInfo> tensors) throws WeightFormatException {
        List<TensorInfo> sorted = new ArrayList<>();
        for (TensorInfo t : tensors) if (t.byteSize() > 0) sorted.add(t);
        sorted.sort(Comparator.comparingLong(TensorInfo::fileOffset));
        for (int i = 1; i < sorted.size(); i++) {
            TensorInfo prev = sorted.get(i - 1);
            TensorInfo cur = sorted.get(i);
            long prevEnd = prev.fileOffset() + prev.byteSize();
            if (cur.fileOffset() < prevEnd) {
                throw new WeightFormatException(
                        file,
                        cur.fileOffset(),
                        "data of tensor '" + cur.name() + "' [" + cur.fileOffset()
                                + ", " + (cur.fileOffset() + cur.byteSize()) + ") overlaps tensor '" + prev.name()
                                + "' ["
                                + prev.fileOffset() + ", " + prevEnd + ")");
            }
        }
    }
}
