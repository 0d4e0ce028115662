package dev.audioengine.gpu.exec;

import dev.audioengine.gpu.runtime.GpuRuntime;
import java.lang.foreign.MemorySegment;

/** A kernel bound to its arguments and launch geometry, ready to enqueue any number of times. */
public record KernelLaunch(
        GpuRuntime api,
        String name,
        MemorySegment function,
        int gx,
        int gy,
        int gz,
        int bx,
        int by,
        int bz,
        int sharedBytes,
        MemorySegment params,
        String op)
        implements Step {
    @Override
    public void enqueue(MemorySegment stream) {
        api.launch(function, gx, gy, gz, bx, by, bz, sharedBytes, stream, params);
    }

    @Override
    public String label() {
        return op + " " + name;
    }

    @Override
    public String toString() {
        return name + "<<<(" + gx + "," + gy + "," + gz + "),(" + bx + "," + by + "," + bz + ")," + sharedBytes + ">>>";
    }
}
