package dev.audioengine.gpu.runtime;

import java.lang.foreign.MemoryLayout;
import java.lang.invoke.MethodHandle;

/**
 * Binds one entry point of a vendor library returning a status int. The vendor module implements
 * it (binding native code is a restricted operation that module is granted), so the shared flows
 * ({@code compile.RuntimeCompiler}, {@code gemm.LtMatmul}, {@link MirroredRuntime}) only invoke handles
 * and need no native access.
 */
@FunctionalInterface
public interface NativeBinder {
    /** Throws IllegalStateException naming the library and the missing symbol. */
    MethodHandle bind(String symbol, MemoryLayout... args);
}
