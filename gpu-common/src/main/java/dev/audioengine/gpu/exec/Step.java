package dev.audioengine.gpu.exec;

import java.lang.foreign.MemorySegment;

/** One unit of work a compiled segment enqueues on its stream: a kernel launch or a library call. */
public interface Step {
    void enqueue(MemorySegment stream);

    /** What the step is in a profile: "op kernel", e.g. "conv1d ae_im2col_1d" or "matmul gemm". */
    default String label() {
        return "library call";
    }

    /** {@code step} under {@code label}. */
    static Step labelled(String label, Step step) {
        return new Step() {
            @Override
            public void enqueue(MemorySegment stream) {
                step.enqueue(stream);
            }

            @Override
            public String label() {
                return label;
            }
        };
    }
}
