package dev.audioengine.conformance;

import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;

/** Reads a tensor (or a strided view of it) from host memory as row-major doubles. */
final class TensorValues {
    private TensorValues() {}

    /** The values of {@code view}, a view of (or equal to) the storage held in {@code storage}. */
    static double[] of(HostTensor storage, Tensor view) {
        double[] all = all(storage);
        if (view == view.storage()
                || (view.isContiguous() && view.offset() == 0 && view.elements() == storage.elements())) {
            return all;
        }
        if (view.dtype().isQuantized()) {
            throw new IllegalArgumentException("cannot read a strided view of quantized " + view);
        }
        int rank = view.rank();
        long[] dims = view.shape().dims(), strides = view.strides();
        int n = Math.toIntExact(view.elements());
        double[] out = new double[n];
        long[] idx = new long[rank];
        for (int i = 0; i < n; i++) {
            long off = view.offset();
            for (int a = 0; a < rank; a++) off += idx[a] * strides[a];
            out[i] = all[Math.toIntExact(off)];
            for (int a = rank - 1; a >= 0 && ++idx[a] == dims[a]; a--) idx[a] = 0;
        }
        return out;
    }

    static double[] all(HostTensor t) {
        int n = Math.toIntExact(t.elements());
        double[] out = new double[n];
        if (t.dtype() == DType.I32) {
            int[] v = t.toIntArray();
            for (int i = 0; i < n; i++) out[i] = v[i];
        } else {
            float[] v = t.toFloatArray();
            for (int i = 0; i < n; i++) out[i] = v[i];
        }
        return out;
    }
}
