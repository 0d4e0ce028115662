package dev.audioengine.backend.hip;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.audioengine.api.spi.NativeLibrary;
import dev.audioengine.gpu.compile.KernelCompileException;
import dev.audioengine.gpu.compile.KernelSources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every shared kernel source compiles through the real hipRTC (ROCm 5.2 here and in CI) for an RDNA
 * (gfx1030, wave32) and a CDNA (gfx90a, wave64) processor, and the compatibility header behaves on
 * AMD as the kernels assume. In CI (CI set) a missing runtime fails instead of skipping.
 */
class HipKernelCompileTest {
    private static final Path KERNELS = Path.of("../gpu-common/src/main/resources/dev/audioengine/gpu/kernels");

    private static void requireRuntime() {
        boolean installed =
                HipLibrary.find(HipLibrary.SONAMES, HipLibrary.defaultFolders()).found();
        if (System.getenv("CI") != null) {
            assertThat(installed)
                    .as("CI installs libamdhip64-5 so that the kernels are compiled for AMD")
                    .isTrue();
        }
        assumeTrue(
                installed,
                "libamdhip64 is not installed here (CI installs libamdhip64-5): kernels not compiled for AMD");
    }

    @ParameterizedTest
    @ValueSource(strings = {"gfx1030", "gfx90a", "gfx90a:sramecc+:xnack-"})
    void everyKernelSourceCompilesToACodeObject(String arch) {
        requireRuntime();
        HipKernelCompiler compiler = new HipKernelCompiler();
        List<String> report = new ArrayList<>();
        for (String source : compiler.sources()) {
            byte[] code = compiler.compile(source, arch);
            assertThat(code)
                    .as(source + " for " + arch + " is an ELF code object")
                    .startsWith(0x7f, 'E', 'L', 'F');
            // e_machine 224 = EM_AMDGPU: a device binary for hipModuleLoadData, not host code or a bundle
            assertThat((code[18] & 0xff) | (code[19] & 0xff) << 8)
                    .as(source + " e_machine")
                    .isEqualTo(224);
            report.add(source + " " + code.length + " bytes");
        }
        System.out.println(compiler.compilerName() + ", " + arch + ": " + String.join(", ", report));
    }

    @Test
    void theHipCompilerOffersExactlyTheSharedKernelSources() throws IOException {
        List<String> onDisk;
        try (Stream<Path> files = Files.list(KERNELS)) {
            onDisk = files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".cu"))
                    .sorted()
                    .toList();
        }
        assertThat(new HipKernelCompiler().sources()).containsExactlyElementsOf(onDisk);
        for (String f : onDisk) assertThat(KernelSources.text(f)).as(f).isEqualTo(Files.readString(KERNELS.resolve(f)));
    }

    @Test
    void aKernelThatDoesNotCompileFailsWithHipRtcsLog() {
        requireRuntime();
        HipRtc rtc = HipRtc.load(
                HipLibrary.find(HipLibrary.SONAMES, HipLibrary.defaultFolders()), HipLibrary.defaultFolders());

        assertThatThrownBy(() -> rtc.compile(
                        "broken.cu",
                        "#include \"gpu_compat.h\"\nGC_KERNEL void k(float* y) { y[0] = undeclared; }\n",
                        KernelSources.headers(),
                        HipKernelCompiler.options("gfx1030")))
                .isInstanceOf(KernelCompileException.class)
                .hasMessageContaining("hipRTC could not compile broken.cu")
                .hasMessageContaining("HIPRTC_ERROR_COMPILATION")
                .hasMessageContaining("undeclared");
    }

    @Test
    void aProcessorTheCompilerDoesNotKnowIsRefusedBeforeHipRtcSeesIt() {
        requireRuntime();
        HipKernelCompiler compiler = new HipKernelCompiler();
        assertThat(compiler.architectures()).contains("gfx90a", "gfx1030");

        // ROCm 5.2's hipRTC would abort the JVM on this one
        assertThatThrownBy(() -> compiler.compile("reduction.cu", "gfx9999"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot target gfx9999")
                .hasMessageContaining("gfx1030");
        assertThat(AmdComgr.processorOf("gfx90a:sramecc+:xnack-")).isEqualTo("gfx90a");
    }

    /** The header's warp width is the target's wave size: a kernel assuming 32 lanes would be wrong on CDNA. */
    @ParameterizedTest
    @ValueSource(strings = {"gfx1030:32", "gfx90a:64", "gfx906:64"})
    void warpSizeIsTheTargetsWaveSize(String archAndWidth) {
        requireRuntime();
        String arch = archAndWidth.split(":")[0], width = archAndWidth.split(":")[1];
        HipRtc rtc = HipRtc.load(
                HipLibrary.find(HipLibrary.SONAMES, HipLibrary.defaultFolders()), HipLibrary.defaultFolders());
        String probe = """
                #include "gpu_compat.h"
                static_assert(GC_WARP_SIZE == %s, "GC_WARP_SIZE");
                GC_KERNEL void warp_sum(float* y) {
                    float v = y[gc_tid()];
                    for (int m = GC_WARP_SIZE / 2; m > 0; m >>= 1) v += gc_shfl_xor(v, m);
                    gc_atomic_add(y + 1024, v);
                }
                """;
        assertThat(rtc.compile(
                        "warp.cu", probe.formatted(width), KernelSources.headers(), HipKernelCompiler.options(arch)))
                .isNotEmpty();
        String wrong = width.equals("32") ? "64" : "32";
        assertThatThrownBy(() -> rtc.compile(
                        "warp.cu", probe.formatted(wrong), KernelSources.headers(), HipKernelCompiler.options(arch)))
                .hasMessageContaining("static assertion failed");
    }

    /**
     * gc_mul_rn/gc_add_rn must stay two rounded operations: HIP's own __fmul_rn/__fadd_rn are plain
     * a*b/a+b that clang fuses into one v_fma once inlined. Checked on the disassembly where
     * llvm-objdump (LLVM 14 or later) is installed.
     */
    @Test
    void separatelyRoundedMultiplyAndAddAreNotFused(@TempDir Path dir) throws Exception {
        requireRuntime();
        Path objdump = Stream.of("/usr/bin/llvm-objdump", "/opt/rocm/llvm/bin/llvm-objdump")
                .map(Path::of)
                .filter(Files::isExecutable)
                .findFirst()
                .orElse(null);
        assumeTrue(objdump != null, "llvm-objdump not installed: code object not disassembled");
        HipRtc rtc = HipRtc.load(
                HipLibrary.find(HipLibrary.SONAMES, HipLibrary.defaultFolders()), HipLibrary.defaultFolders());
        String src = """
                #include "gpu_compat.h"
                GC_KERNEL void mul_add(float* y, const float* a, const float* b, const float* c) {
                    int i = gc_tid();
                    y[i] = gc_add_rn(gc_mul_rn(a[i], b[i]), c[i]);
                }
                GC_KERNEL void fused(float* y, const float* a, const float* b, const float* c) {
                    int i = gc_tid();
                    y[i] = a[i] * b[i] + c[i];
                }
                """;
        for (String arch : List.of("gfx1030", "gfx90a")) {
            Path co = dir.resolve(arch + ".co");
            Files.write(co, rtc.compile("fma.cu", src, KernelSources.headers(), HipKernelCompiler.options(arch)));
            Process p = new ProcessBuilder(objdump.toString(), "-d", "--mcpu=" + arch, co.toString())
                    .redirectErrorStream(true)
                    .start();
            String asm = new String(p.getInputStream().readAllBytes());
            assertThat(p.waitFor()).isZero();
            String mulAdd = asm.substring(asm.indexOf("<mul_add>:"), asm.indexOf("<fused>:"));
            String fused = asm.substring(asm.indexOf("<fused>:"));
            assertThat(mulAdd)
                    .as(arch + " mul_add")
                    .contains("v_mul_f32")
                    .contains("v_add_f32")
                    .doesNotContain("v_fma");
            assertThat(fused)
                    .as(arch + " fused: the check would see a fused multiply-add")
                    .containsPattern("v_fma[c]?_f32");
        }
    }

    @Test
    void withoutTheRuntimeAndWithoutLibhiprtcTheErrorSaysWhatWasTried(@TempDir Path empty) {
        assumeTrue(
                HipLibrary.find(HipRtc.SONAMES, List.of()).found() == false,
                "a separate libhiprtc is installed here (ROCm 6+)");
        NativeLibrary absent = HipLibrary.find(List.of("libaudioengine-absent.so.6"), List.of(empty));

        assertThatThrownBy(() -> HipRtc.load(absent, List.of(empty)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith(
                        "hipRTC, which compiles the kernels, not found: tried libhiprtc.so.7, libhiprtc.so.6, libhiprtc.so")
                .hasMessageContaining(empty.toString())
                .hasMessageContaining("install ROCm's hiprtc package");
    }
}
