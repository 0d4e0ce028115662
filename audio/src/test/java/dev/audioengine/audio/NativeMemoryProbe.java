package dev.audioengine.audio;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.Collections;

/**
 * Not a test: opens, decodes and closes each file named (those that fail to open included) {@code warm} times, then
 * {@code rounds} more, asking glibc every {@code every} rounds how much of its heap is in use, and prints the growth
 * over the rounds that a straight line through those points gives, in bytes, for {@link FfmpegInputsTest}. Run in a JVM of its own with {@code -Xint}: the JIT compilers' malloc'd arenas swing the
 * process's heap by megabytes while they work, which would hide a leak of kilobytes.
 */
public final class NativeMemoryProbe {
    /** struct mallinfo2: ten size_t, of which hblkhd (mmapped chunks) is the 5th and uordblks (heap chunks) the 8th. */
    static final MemoryLayout MALLINFO2 = MemoryLayout.structLayout(
            Collections.nCopies(10, ValueLayout.JAVA_LONG).toArray(MemoryLayout[]::new));

    public static void main(String[] args) throws Throwable {
        int warm = Integer.parseInt(args[0]), rounds = Integer.parseInt(args[1]), every = Integer.parseInt(args[2]);
        var found = Linker.nativeLinker().defaultLookup().find("mallinfo2");
        if (found.isEmpty()) {
            System.out.println("skip|no mallinfo2 in this C library (glibc 2.33 or later has it)");
            return;
        }
        MethodHandle mallinfo2 = Linker.nativeLinker().downcallHandle(found.get(), FunctionDescriptor.of(MALLINFO2));
        float[] block = new float[1 << 16];
        long opened = 0, refused = 0;
        // heap in use every few rounds: a leak grows it in proportion to the rounds, the JVM's own housekeeping
        // (its chunk pools are trimmed every few seconds) moves it up and down by tens of KiB; the slope tells them
        // apart
        double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (int r = 0; r <= warm + rounds; r++) {
            if (r >= warm && (r - warm) % every == 0) {
                double x = r - warm, y = inUse(mallinfo2);
                n++;
                sx += x;
                sy += y;
                sxx += x * x;
                sxy += x * y;
            }
            if (r == warm + rounds) break;
            for (int i = 3; i < args.length; i++) {
                try (FrameDecoder d = AudioDecoders.open(Path.of(args[i]), AudioStream.BEST_AUDIO_STREAM, w -> {})) {
                    while (d.read(block, block.length / d.channels()) >= 0) {
                        // decode to the end
                    }
                    opened++;
                } catch (AudioFormatException e) {
                    refused++;
                }
            }
        }
        double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx); // bytes per round
        System.out.println(Math.round(slope * rounds) + "|" + opened + "|" + refused);
    }

    /** Bytes malloc has handed out and not had back. */
    static long inUse(MethodHandle mallinfo2) throws Throwable {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment m = (MemorySegment) mallinfo2.invokeExact((SegmentAllocator) a);
            return m.getAtIndex(ValueLayout.JAVA_LONG, 7) + m.getAtIndex(ValueLayout.JAVA_LONG, 4);
        }
    }
}
