package dev.audioengine.backend.cuda;

import dev.audioengine.api.spi.Executable;

import java.lang.foreign.Arena;
import java.util.List;

/**
 * A compiled segment: its steps in order, the launch arguments (in {@link #arena}) and scratch
 * memory it owns. With graphs on, the first run captures the steps into a CUDA graph and later
 * runs replay it with one launch; with graphs off, every run enqueues every step. Either way the
 * run returns once the work is enqueued: downloads wait for the stream.
 */
final class CudaExecutable implements Executable {
    private final CudaBackend backend;
    private final List<Step> steps;
    private final Arena arena;
    private final List<CudaBuffer> scratch;
    private boolean closed;

    CudaExecutable(CudaBackend backend, List<Step> steps, Arena arena, List<CudaBuffer> scratch) {
        this.backend = backend;
        this.steps = List.copyOf(steps);
        this.arena = arena;
        this.scratch = List.copyOf(scratch);
    }

    @Override
    public void run() {
        if (closed) throw new IllegalStateException("compiled CUDA segment is closed");
        backend.execute(this, steps);
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        backend.forgetGraph(this);
        for (CudaBuffer b : scratch) b.close();
        arena.close();
    }
}
