package dev.audioengine.gpu.gemm;

import java.lang.foreign.MemorySegment;

/** A GpuBlas that plans every shape and records runs. */
public final class FakeBlas implements GpuBlas {
    public int runs;
    public boolean closed;

    @Override
    public Plan plan(Shape s) {
        return new Plan() {};
    }

    @Override
    public void run(Plan p, long a, long b, long d, MemorySegment stream, boolean accumulate) {
        runs++;
    }

    @Override
    public String describe() {
        return "fakeBLAS /opt/fake/libfakeblas.so.1";
    }

    @Override
    public void close() {
        closed = true;
    }
}
