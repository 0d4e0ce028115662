package dev.audioengine.api.exec;

import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.HostTensor;
import java.lang.foreign.MemorySegment;

/** Gathers a (possibly strided) view of a host tensor's storage into a contiguous tensor. */
final class HostStridedCopy {
    private HostStridedCopy() {}

    static void gather(HostTensor storage, Tensor view, HostTensor out) {
        if (view.isContiguous()) {
            out.data().copyFrom(storage.data().asSlice(view.dtype().bytesFor(view.offset()), out.byteSize()));
            return;
        }
        if (view.dtype().isQuantized())
            throw new IllegalArgumentException("cannot return a strided view of quantized " + view + " as an output");
        int es = view.dtype().blockBytes();
        long[] dims = new long[4], strides = new long[4];
        int pad = 4 - view.rank();
        for (int i = 0; i < 4; i++) {
            dims[i] = i < pad ? 1 : view.dim(i - pad);
            strides[i] = i < pad ? 0 : view.stride(i - pad);
        }
        MemorySegment src = storage.data(), dst = out.data();
        long o = 0;
        for (long a = 0; a < dims[0]; a++)
            for (long b = 0; b < dims[1]; b++)
                for (long c = 0; c < dims[2]; c++)
                    for (long d = 0; d < dims[3]; d++) {
                        long si = view.offset() + a * strides[0] + b * strides[1] + c * strides[2] + d * strides[3];
                        MemorySegment.copy(src, si * es, dst, o * es, es);
                        o++;
                    }
    }
}
