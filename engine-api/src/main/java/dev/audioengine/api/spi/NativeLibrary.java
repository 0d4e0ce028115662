package dev.audioengine.api.spi;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A vendor library found for a backend's probe: each soname is tried on the dynamic loader's path
 * (LD_LIBRARY_PATH, ld.so.cache), then in each folder; when nothing loads, {@link #searchReport}
 * names every soname and folder tried and dlerror's words for files that exist but would not
 * load. A found library stays loaded for the life of the process (global arena): unloading an
 * initialized driver is unsafe, and runtimes start threads that must keep their code.
 */
public final class NativeLibrary {
    private final SymbolLookup symbols;
    private final String location;
    private final String searchReport;

    private NativeLibrary(SymbolLookup symbols, String location, String searchReport) {
        this.symbols = symbols;
        this.location = location;
        this.searchReport = searchReport;
    }

    /**
     * Tries every soname on the loader path, then in every folder; never throws. {@code anchorSymbol}
     * is any function the library exports: dladdr on it tells which file the loader picked.
     *
     * @param sonames the names to try, preferred first (e.g. {@code libcuda.so.1}, then {@code libcuda.so})
     * @param folders extra folders to look in when the loader finds none (a toolkit's lib folder), in order; may be
     *     empty
     * @param anchorSymbol a function the library exports, to learn the loaded file's path
     * @return the library, or (when {@link #found()} is false) the report of what was tried; never null
     */
    public static NativeLibrary find(List<String> sonames, List<Path> folders, String anchorSymbol) {
        List<String> unloadable = new ArrayList<>();
        for (String soname : sonames) {
            Optional<SymbolLookup> lookup = open(soname, null, unloadable);
            if (lookup.isPresent())
                return new NativeLibrary(
                        lookup.get(), fileOf(lookup.get(), anchorSymbol).orElse(soname), null);
        }
        for (Path folder : folders) {
            for (String soname : sonames) {
                Path file = folder.resolve(soname);
                if (!Files.exists(file)) continue;
                Optional<SymbolLookup> lookup = open(file.toString(), file, unloadable);
                if (lookup.isPresent()) return new NativeLibrary(lookup.get(), file.toString(), null);
            }
        }
        String report = "tried " + String.join(", ", sonames) + " on the loader path"
                + (folders.isEmpty()
                        ? ""
                        : " and in "
                                + String.join(
                                        ", ",
                                        folders.stream().map(Path::toString).toList()))
                + (unloadable.isEmpty() ? "" : "; " + String.join("; ", unloadable));
        return new NativeLibrary(null, null, report);
    }

    private static Optional<SymbolLookup> open(String name, Path file, List<String> unloadable) {
        try {
            return Optional.of(
                    file == null
                            ? SymbolLookup.libraryLookup(name, Arena.global())
                            : SymbolLookup.libraryLookup(file, Arena.global()));
        } catch (IllegalArgumentException e) {
            String why = dlopenError(name);
            // A soname the loader does not know is simply absent; anything else (a missing dependency,
            // a wrong ELF class, a file that is no library) is worth showing to the user.
            if (file != null || !why.contains("No such file or directory")) {
                unloadable.add(name + (file != null ? " exists" : " is on the loader path")
                        + " but could not be loaded: " + why);
            }
            return Optional.empty();
        }
    }

    /** dlerror's words for why dlopen refuses a library; the JDK's exception only says it could not. */
    private static String dlopenError(String name) {
        Linker linker = Linker.nativeLinker();
        Optional<MemorySegment> dlopen = linker.defaultLookup().find("dlopen");
        Optional<MemorySegment> dlerror = linker.defaultLookup().find("dlerror");
        if (dlopen.isEmpty() || dlerror.isEmpty()) return "(dlerror unavailable)";
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment handle = (MemorySegment) linker.downcallHandle(
                            dlopen.get(),
                            FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT))
                    .invokeExact(arena.allocateFrom(name), RTLD_LAZY);
            if (!handle.equals(MemorySegment.NULL)) return "dlopen accepts it but the JDK did not";
            MemorySegment message =
                    (MemorySegment) linker.downcallHandle(dlerror.get(), FunctionDescriptor.of(ValueLayout.ADDRESS))
                            .invokeExact();
            return message.equals(MemorySegment.NULL)
                    ? "(no dlerror message)"
                    : message.reinterpret(Long.MAX_VALUE).getString(0);
        } catch (Throwable t) {
            return "(dlerror unavailable: " + t + ")";
        }
    }

    private static final int RTLD_LAZY = 1;

    /** Dl_info from dlfcn.h: four pointers (file name, file base, symbol name, symbol address), filled by dladdr. */
    public static final StructLayout DL_INFO = MemoryLayout.structLayout(
            ValueLayout.ADDRESS.withName("dli_fname"), ValueLayout.ADDRESS.withName("dli_fbase"),
            ValueLayout.ADDRESS.withName("dli_sname"), ValueLayout.ADDRESS.withName("dli_saddr"));

    /** The file the loader picked for a bare soname, asked of dladdr with the address of an exported symbol. */
    private static Optional<String> fileOf(SymbolLookup lookup, String anchorSymbol) {
        Optional<MemorySegment> anchor = lookup.find(anchorSymbol);
        Optional<MemorySegment> dladdr = Linker.nativeLinker().defaultLookup().find("dladdr");
        if (anchor.isEmpty() || dladdr.isEmpty()) return Optional.empty();
        MethodHandle call = Linker.nativeLinker()
                .downcallHandle(
                        dladdr.get(),
                        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment info = arena.allocate(DL_INFO);
            int ok = (int) call.invokeExact(anchor.get(), info);
            MemorySegment name = info.get(
                    ValueLayout.ADDRESS, DL_INFO.byteOffset(MemoryLayout.PathElement.groupElement("dli_fname")));
            if (ok == 0 || name.equals(MemorySegment.NULL)) return Optional.empty();
            // The loader's path may run through symlinks (/lib -> /usr/lib, soname -> versioned file).
            return Optional.of(Path.of(name.reinterpret(Long.MAX_VALUE).getString(0))
                    .toRealPath()
                    .toString());
        } catch (Throwable t) {
            // Only the label suffers: the caller falls back to the soname it asked for.
            return Optional.empty();
        }
    }

    /**
     * Whether one of the names loaded.
     *
     * @return true when {@link #symbols()} can be used; false when {@link #searchReport()} says why not
     */
    public boolean found() {
        return symbols != null;
    }

    /**
     * The loaded library's symbols, for binding downcalls. They stay valid for the life of the process.
     *
     * @return the lookup, or null when not {@link #found()}
     */
    public SymbolLookup symbols() {
        return symbols;
    }

    /**
     * Where the library was loaded from: a file path, or the soname when the loader found it.
     *
     * @return the real path of the loaded file where dladdr could tell it, else the name tried; null when not found
     */
    public String location() {
        return location;
    }

    /**
     * Every soname and folder tried, for the unavailable reason; null when found.
     *
     * @return one line, including dlerror's words for files that exist but would not load
     */
    public String searchReport() {
        return searchReport;
    }
}
