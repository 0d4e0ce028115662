package dev.audioengine.api.tensor;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Zeroed native memory owned by an arena, as {@link Arena#allocate(long, long)} gives, from the C library's
 * {@code calloc}: the engine's host tensors, CPU buffers and weight copies.
 *
 * <p>Why not {@code Arena.allocate}: JDK 25 zero-fills each new segment with a Java loop
 * ({@code SegmentFactories.initNativeMemory}), and the launcher runs one-shot jobs without on-stack replacement (a
 * kernel's long loop was compiled twice), so an allocation early in a process zero-fills in the interpreter, a few
 * nanoseconds a byte: a one-shot Whisper run spent about a tenth of its samples there, most of it on the 78 MB copy of
 * its ggml file (docs/PERFORMANCE.md). {@code calloc} gives the same zeroed memory at native speed: a large block is
 * fresh pages from the kernel, zero already, and a small one a native {@code memset}.
 *
 * <p>Where the C library's {@code calloc} and {@code free} are not found, or this module may not call native code
 * (an application that grants the engine no native access: the JDK would warn), the arena allocates as before.
 */
public final class NativeMemory {
    private static final MethodHandle CALLOC, FREE;
    private static final AtomicLong LIVE = new AtomicLong();

    static {
        MethodHandle calloc = null, free = null;
        if (NativeMemory.class.getModule().isNativeAccessEnabled()) {
            try {
                Linker linker = Linker.nativeLinker();
                SymbolLookup libc = linker.defaultLookup();
                Optional<MemorySegment> c = libc.find("calloc"), f = libc.find("free");
                MemoryLayout size = linker.canonicalLayouts().get("size_t");
                if (c.isPresent() && f.isPresent() && size != null) {
                    calloc = linker.downcallHandle(c.get(), FunctionDescriptor.of(AddressLayout.ADDRESS, size, size));
                    free = linker.downcallHandle(f.get(), FunctionDescriptor.ofVoid(AddressLayout.ADDRESS));
                    if (size.byteSize() != Long.BYTES) calloc = free = null; // a 32-bit size_t: not worth a path
                }
            } catch (RuntimeException | LinkageError e) {
                calloc = free = null;
            }
        }
        CALLOC = calloc;
        FREE = free;
    }

    private NativeMemory() {}

    /**
     * Zeroed memory that {@code arena} frees when it closes.
     *
     * @param arena the owner: the memory lives until it closes (or, for an automatic arena, is collected)
     * @param bytes at least 0
     * @param alignment a power of two
     * @return a segment of exactly {@code bytes} bytes at an address that is a multiple of {@code alignment}
     * @throws OutOfMemoryError if the C library has no memory to give (the message says how much was asked)
     * @throws IllegalArgumentException if {@code bytes} is negative or {@code alignment} not a power of two
     */
    public static MemorySegment zeroed(Arena arena, long bytes, long alignment) {
        if (bytes < 0 || alignment <= 0 || Long.bitCount(alignment) != 1)
            throw new IllegalArgumentException("native memory of " + bytes + " bytes at alignment " + alignment);
        if (CALLOC == null) return arena.allocate(bytes, alignment);
        return fromCalloc(arena, bytes, alignment);
    }

    /** Whether {@link #zeroed} takes its memory from {@code calloc} in this process. */
    public static boolean fromCLibrary() {
        return CALLOC != null;
    }

    /** Bytes {@link #zeroed} took from {@code calloc} that no arena has freed yet (alignment slack included). */
    public static long liveBytes() {
        return LIVE.get();
    }

    static MemorySegment fromCalloc(Arena arena, long bytes, long alignment) {
        // calloc aligns to 16 on 64-bit C libraries (8 assumed); more is asked for and the segment starts at the
        // first aligned address in it
        long whole = bytes + (alignment > 8 ? alignment - 8 : 0);
        MemorySegment p;
        try {
            p = (MemorySegment) CALLOC.invokeExact(1L, Math.max(whole, 1));
        } catch (Throwable t) {
            throw new IllegalStateException("calloc failed", t);
        }
        if (p.address() == 0)
            throw new OutOfMemoryError("the C library could not give " + bytes + " bytes of native memory (calloc)");
        long size = Math.max(whole, 1);
        LIVE.addAndGet(size);
        MemorySegment owned;
        try {
            owned = p.reinterpret(size, arena, s -> free(s, size));
        } catch (RuntimeException e) { // a closed arena, or a confined one of another thread: nothing owns it
            free(p, size);
            throw e;
        }
        long skip = (alignment - (p.address() & (alignment - 1))) & (alignment - 1);
        return owned.asSlice(skip, bytes);
    }

    private static void free(MemorySegment s, long size) {
        try {
            FREE.invokeExact(s);
        } catch (Throwable t) {
            throw new IllegalStateException("free failed", t);
        }
        LIVE.addAndGet(-size);
    }
}
