package dev.audioengine.backend.hip;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.audioengine.api.spi.NativeLibrary;
import dev.audioengine.gpu.GpuException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The code-object manager (libamd_comgr) behind hipRTC, asked only which GPU processors its compiler
 * knows. hipRTC of ROCm 5.2 aborts the whole process (a glibc "invalid pointer") when handed a
 * processor it does not know, e.g. gfx1100, so an architecture is checked here first.
 */
final class AmdComgr {
    static final List<String> SONAMES = List.of("libamd_comgr.so.3", "libamd_comgr.so.2");
    private static final String ISA_PREFIX = "amdgcn-amd-amdhsa--";

    private AmdComgr() {}

    /** The processors ("gfx90a", "gfx1030", ...) the installed compiler can target; throws if comgr is missing. */
    static List<String> processors(List<Path> folders) {
        NativeLibrary lib = NativeLibrary.find(SONAMES, folders, "amd_comgr_get_version");
        if (!lib.found()) {
            throw new IllegalStateException(
                    "libamd_comgr (the ROCm code-object manager hipRTC compiles through) not found: "
                            + lib.searchReport() + "; install ROCm's comgr package (Debian: libamd-comgr2)");
        }
        Linker linker = Linker.nativeLinker();
        MethodHandle count = linker.downcallHandle(
                lib.symbols()
                        .find("amd_comgr_get_isa_count")
                        .orElseThrow(() ->
                                new IllegalStateException(lib.location() + " does not export amd_comgr_get_isa_count")),
                FunctionDescriptor.of(JAVA_INT, ADDRESS));
        MethodHandle name = linker.downcallHandle(
                lib.symbols()
                        .find("amd_comgr_get_isa_name")
                        .orElseThrow(() ->
                                new IllegalStateException(lib.location() + " does not export amd_comgr_get_isa_name")),
                FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS));
        try (Arena a = Arena.ofConfined()) {
            MemorySegment n = a.allocate(JAVA_LONG);
            if ((int) count.invokeExact(n) != 0)
                throw new IllegalStateException("amd_comgr_get_isa_count failed (" + lib.location() + ")");
            List<String> processors = new ArrayList<>();
            MemorySegment out = a.allocate(ADDRESS);
            for (long i = 0; i < n.get(JAVA_LONG, 0); i++) {
                if ((int) name.invokeExact(i, out) != 0)
                    throw new IllegalStateException("amd_comgr_get_isa_name(" + i + ") failed");
                String isa = out.get(ADDRESS, 0).reinterpret(256).getString(0);
                String processor = isa.startsWith(ISA_PREFIX) ? isa.substring(ISA_PREFIX.length()) : isa;
                int colon = processor.indexOf(':'); // newer comgr lists target-feature variants too
                processor = colon < 0 ? processor : processor.substring(0, colon);
                if (!processors.contains(processor)) processors.add(processor);
            }
            return processors;
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    /** "gfx90a" of "gfx90a:sramecc+:xnack-": the processor part of an arch name. */
    static String processorOf(String arch) {
        int colon = arch.indexOf(':');
        return colon < 0 ? arch : arch.substring(0, colon);
    }
}
