package dev.audioengine.gpu;

import dev.audioengine.api.spi.Executable;
import dev.audioengine.gpu.exec.Step;
import dev.audioengine.gpu.runtime.GpuBuffer;
import java.lang.foreign.Arena;
import java.util.List;

/**
 * A compiled segment: its steps in order, the launch arguments (in {@link #arena}) and scratch
 * memory it owns. With graphs on, the first two runs enqueue every step, the third captures them into a device
 * graph and later runs replay it with one launch; with graphs off, every run enqueues every step. Either way the
 * run returns once the work is enqueued: downloads wait for the stream.
 */
final class GpuExecutable implements Executable {
    private final GpuBackend backend;
    private final List<Step> steps;
    private final Arena arena;
    private final List<GpuBuffer> scratch;
    /** Hands back the decoded weight copies the segment used (under the backend's lock). */
    private final Runnable releaseDecoded;

    private boolean closed;
    private long runs;

    GpuExecutable(GpuBackend backend, List<Step> steps, Arena arena, List<GpuBuffer> scratch, Runnable releaseDecoded) {
        this.backend = backend;
        this.releaseDecoded = releaseDecoded;
        this.steps = List.copyOf(steps);
        this.arena = arena;
        this.scratch = List.copyOf(scratch);
    }

    @Override
    public void run() {
        if (closed) throw new IllegalStateException("compiled " + backend.vendorName() + " segment is closed");
        backend.execute(this, steps, ++runs);
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        backend.forgetGraph(this);
        backend.release(releaseDecoded);
        for (GpuBuffer b : scratch) b.close();
        arena.close();
    }
}
