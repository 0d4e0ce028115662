package dev.audioengine.backend.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.audioengine.gpu.compile.GpuKernelCompiler;
import dev.audioengine.gpu.compile.KernelCache;
import dev.audioengine.gpu.compile.KernelSources;
import org.junit.jupiter.api.Test;

/**
 * The fatbins scripts/gpu/cuda-kernels built into this module (where the build had nvcc) cover every kernel source,
 * and were built from the text gpu-common holds now: the script's hash and KernelCache's agree, so the backend loads
 * them instead of compiling. Whether the driver runs them is the device evidence's part (docs/PERFORMANCE-cuda.md).
 */
class PrebuiltKernelsTest {
    @Test
    void everySourceHasAFatbinBuiltFromTheCurrentText() throws Exception {
        assumeTrue(
                Nvrtc.class.getResource("kernels/manifest") != null,
                "this build had no nvcc: no fatbins, NVRTC compiles at first use");
        var headers = KernelSources.headers();
        for (String source : KernelSources.SOURCES) {
            GpuKernelCompiler.Prebuilt p =
                    Nvrtc.prebuiltOf(source); // the lookup alone: libnvrtc is absent where CI runs
            assertThat(p).as(source).isNotNull();
            assertThat(p.builtFrom())
                    .as(source + ": the manifest's hash of the text it was built from")
                    .isEqualTo(KernelCache.textSha256(KernelSources.text(source + ".cu"), headers));
            // a fatbin starts with its magic 0xBA55ED50, little-endian
            assertThat(p.image()).hasSizeGreaterThan(1024);
            assertThat(java.nio.ByteBuffer.wrap(p.image())
                            .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                            .getInt(0))
                    .isEqualTo(0xBA55ED50);
        }
    }
}
