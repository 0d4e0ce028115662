package dev.audioengine.backend.cuda;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

/** Binding native entry points that return a status int (CUresult, nvrtcResult, cublasStatus_t). */
final class Downcalls {
    private Downcalls() {}

    /** Binds {@code name} returning int; throws IllegalStateException naming the library and the missing symbol. */
    static MethodHandle bind(SymbolLookup lib, String libraryName, String name, MemoryLayout... args) {
        return Linker.nativeLinker()
                .downcallHandle(find(lib, libraryName, name), FunctionDescriptor.of(JAVA_INT, args));
    }

    /** The first of {@code names} the library exports (versioned names first), bound returning int. */
    static MethodHandle bindFirst(SymbolLookup lib, String libraryName, String[] names, MemoryLayout... args) {
        for (String n : names) {
            var s = lib.find(n);
            if (s.isPresent())
                return Linker.nativeLinker().downcallHandle(s.get(), FunctionDescriptor.of(JAVA_INT, args));
        }
        throw new IllegalStateException(libraryName + " exports none of " + String.join(", ", names));
    }

    static MemorySegment find(SymbolLookup lib, String libraryName, String name) {
        return lib.find(name)
                .orElseThrow(() -> new IllegalStateException(libraryName + " does not export " + name
                        + "; it is not the expected library or its version is too old"));
    }
}
