package dev.audioengine.backend.hip;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.spi.KernelCompiler;
import dev.audioengine.api.spi.NativeLibrary;
import dev.audioengine.gpu.compile.KernelSources;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

/**
 * The shared kernel sources compiled through the installed hipRTC for any gfx processor its
 * compiler knows, with no AMD GPU needed: {@code audioengine kernels compile --backend hip --arch gfx1030}.
 * The options are the ones the backend compiles with at run time, so a pass here is a pass there.
 */
public final class HipKernelCompiler implements KernelCompiler {
    private final List<String> sonames;
    private final Supplier<List<Path>> folders;
    private HipRtc rtc;
    private String rocmVersion;
    private List<String> processors;

    public HipKernelCompiler() {
        this(HipLibrary.SONAMES, HipLibrary::defaultFolders);
    }

    HipKernelCompiler(List<String> sonames, Supplier<List<Path>> folders) {
        this.sonames = List.copyOf(sonames);
        this.folders = folders;
    }

    /** hipRTC's options for one architecture: the full gcnArchName (target features included) and C++17. */
    static List<String> options(String arch) {
        return List.of("--offload-arch=" + arch, "-std=c++17");
    }

    @Override
    public BackendType type() {
        return BackendType.HIP;
    }

    private synchronized HipRtc rtc() {
        if (rtc == null) {
            NativeLibrary runtime = HipLibrary.find(sonames, folders.get());
            if (runtime.found()) {
                try (Arena a = Arena.ofConfined()) {
                    rocmVersion = HipDevices.versionName(
                            new HipRuntime(runtime.symbols(), runtime.location()).runtimeVersion(a));
                }
            }
            rtc = HipRtc.load(runtime, folders.get(), rocmVersion);
            processors = AmdComgr.processors(folders.get());
        }
        return rtc;
    }

    @Override
    public String compilerName() {
        HipRtc r = rtc();
        // ROCm 5's hiprtcVersion answers a fixed 9.0, so the version names the runtime's HIP version too
        return r.version() + " (" + r.location() + ")";
    }

    @Override
    public synchronized List<String> architectures() {
        rtc();
        return processors;
    }

    @Override
    public List<String> sources() {
        return KernelSources.SOURCES.stream().map(s -> s + ".cu").toList();
    }

    @Override
    public byte[] compile(String source, String arch) {
        HipRtc r = rtc();
        if (!sources().contains(source))
            throw new IllegalArgumentException("no kernel source " + source + "; the sources are " + sources());
        requireKnown(arch);
        return r.compile(source, KernelSources.text(source), KernelSources.headers(), options(arch));
    }

    /** hipRTC aborts the process on a processor its compiler does not know, so refuse it here with the list. */
    void requireKnown(String arch) {
        if (!architectures().contains(AmdComgr.processorOf(arch))) {
            throw new IllegalArgumentException("the installed ROCm compiler cannot target " + arch + "; it knows "
                    + String.join(", ", architectures()) + " (a newer ROCm is needed for newer GPUs)");
        }
    }
}
