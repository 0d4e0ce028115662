package dev.audioengine.gpu.runtime;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.audioengine.gpu.GpuException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.IntFunction;

/**
 * The vendor calls that return a status and write their answer through a pointer (an int, a
 * size_t, a char buffer): allocate the answer, call, check the status by the vendor's error
 * names, read. CUDA's driver and HIP's runtime probes both ask their devices this way.
 */
public final class OutParams {
    /** One downcall given the pointer to write to; returns the vendor's status. */
    @FunctionalInterface
    public interface Call {
        int invoke(MemorySegment out) throws Throwable;
    }

    private OutParams() {}

    public static int i32(Arena arena, String call, IntFunction<String> errorNames, Call c) {
        return run(arena.allocate(JAVA_INT), call, errorNames, c).get(JAVA_INT, 0);
    }

    public static long i64(Arena arena, String call, IntFunction<String> errorNames, Call c) {
        return run(arena.allocate(JAVA_LONG), call, errorNames, c).get(JAVA_LONG, 0);
    }

    /** A NUL-terminated string the call writes into {@code capacity} bytes. */
    public static String string(Arena arena, int capacity, String call, IntFunction<String> errorNames, Call c) {
        return run(arena.allocate(capacity), call, errorNames, c).getString(0);
    }

    private static MemorySegment run(MemorySegment out, String call, IntFunction<String> errorNames, Call c) {
        try {
            GpuException.check(c.invoke(out), call, errorNames);
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
        return out;
    }
}
