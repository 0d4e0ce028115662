package dev.audioengine.bench;

import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;

/** Inputs for the benches: random values (never zeros, which some hardware computes faster) and native copies for the peer. */
final class Fixtures {
    /** Rotate over enough input slots that all of them together are at least this big: well past the last-level cache. */
    static final long ROTATION_BYTES = 128L << 20;

    static final int MAX_SLOTS = 16;

    private Fixtures() {}

    static float[] uniform(long count, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] v = new float[Math.toIntExact(count)];
        for (int i = 0; i < v.length; i++) v[i] = (float) (r.nextDouble() * 2 - 1);
        return v;
    }

    static HostTensor tensor(DType dtype, Shape shape, long seed) {
        return HostTensor.convert(dtype, shape, uniform(shape.elements(), seed));
    }

    /** A 64-byte aligned native copy of an F32 tensor, for the peer. */
    static MemorySegment nativeCopy(Arena arena, HostTensor t) {
        if (t.dtype() != DType.F32) throw new IllegalArgumentException("the peer works in F32, got " + t.dtype());
        return arena.allocate(t.byteSize(), 64).copyFrom(t.data());
    }

    static MemorySegment nativeZeros(Arena arena, long floats) {
        return arena.allocate(ValueLayout.JAVA_FLOAT, floats);
    }

    /** Slots so that slots x bytesPerSlot reaches {@link #ROTATION_BYTES} (2 to {@link #MAX_SLOTS}). */
    static int slots(long bytesPerSlot, boolean smoke) {
        if (smoke) return 2;
        return (int) Math.max(2, Math.min(MAX_SLOTS, (ROTATION_BYTES + bytesPerSlot - 1) / Math.max(1, bytesPerSlot)));
    }
}
