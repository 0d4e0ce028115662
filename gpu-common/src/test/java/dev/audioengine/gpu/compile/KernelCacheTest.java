package dev.audioengine.gpu.compile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.gpu.runtime.FakeRuntime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Kernels shipped built ahead of time are loaded instead of compiled, and only when built from the text in hand. */
class KernelCacheTest {
    /** A compiler that records what it compiles and ships a code object built from the text given. */
    private static final class Shipping implements GpuKernelCompiler {
        final List<String> compiled = new ArrayList<>();
        private final String builtFrom;

        Shipping(String builtFrom) {
            this.builtFrom = builtFrom;
        }

        @Override
        public String version() {
            return "13.0";
        }

        @Override
        public List<String> options(String arch) {
            return List.of("--gpu-architecture=" + arch);
        }

        @Override
        public byte[] compile(String name, String source, Map<String, String> headers, List<String> options) {
            compiled.add(name);
            return new byte[] {1};
        }

        @Override
        public Prebuilt prebuilt(String source) {
            return builtFrom == null ? null : new Prebuilt(new byte[] {7, 7}, builtFrom);
        }
    }

    @Test
    void aShippedModuleBuiltFromTheSameTextIsLoadedWithoutCompiling() {
        String text = KernelSources.text("elementwise.cu");
        Shipping compiler = new Shipping(KernelCache.textSha256(text, KernelSources.headers()));
        try (KernelCache cache = new KernelCache(new FakeRuntime(1 << 20), compiler, "sm_90", null)) {
            cache.function("elementwise", "ae_unary_strided");
            assertThat(compiler.compiled).isEmpty();
            assertThat(cache.prebuiltCount()).isEqualTo(1);
            assertThat(cache.compiledCount()).isZero();
        }
    }

    @Test
    void optionPrebuiltKernelsOffCompilesThemAnyway() {
        Shipping compiler =
                new Shipping(KernelCache.textSha256(KernelSources.text("elementwise.cu"), KernelSources.headers()));
        try (KernelCache cache = new KernelCache(new FakeRuntime(1 << 20), compiler, "sm_90", null, false)) {
            cache.function("elementwise", "ae_unary_strided");
            assertThat(compiler.compiled).containsExactly("elementwise.cu");
        }
    }

    @Test
    void aShippedModuleBuiltFromOtherTextIsNeverLoaded() {
        Shipping compiler = new Shipping(KernelCache.textSha256("// an older elementwise.cu", KernelSources.headers()));
        try (KernelCache cache = new KernelCache(new FakeRuntime(1 << 20), compiler, "sm_90", null)) {
            cache.function("elementwise", "ae_unary_strided");
            assertThat(compiler.compiled).containsExactly("elementwise.cu");
            assertThat(cache.prebuiltCount()).isZero();
        }
    }

    @Test
    void theTextHashCoversEveryHeaderInNameOrder() {
        Map<String, String> headers = KernelSources.headers();
        String base = KernelCache.textSha256("x", headers);
        Map<String, String> changed = new java.util.LinkedHashMap<>(headers);
        changed.put("gpu_compat.h", headers.get("gpu_compat.h") + " ");
        assertThat(KernelCache.textSha256("x", changed)).isNotEqualTo(base);
        Map<String, String> reversed = new java.util.LinkedHashMap<>();
        List<String> names = new ArrayList<>(headers.keySet());
        java.util.Collections.reverse(names);
        for (String n : names) reversed.put(n, headers.get(n));
        assertThat(KernelCache.textSha256("x", reversed))
                .as("insertion order does not matter")
                .isEqualTo(base);
    }

    @Test
    void cacheKeyChangesWithEverythingThatDecidesTheBinary() {
        Map<String, String> h = Map.of("gpu_compat.h", "a");
        String base = KernelCache.key("src", h, "sm_90", "13.0", List.of("-x"));
        assertThat(KernelCache.key("src", h, "sm_90", "13.0", List.of("-x"))).isEqualTo(base);
        assertThat(KernelCache.key("src2", h, "sm_90", "13.0", List.of("-x"))).isNotEqualTo(base);
        assertThat(KernelCache.key("src", Map.of("gpu_compat.h", "b"), "sm_90", "13.0", List.of("-x")))
                .isNotEqualTo(base);
        assertThat(KernelCache.key("src", h, "sm_89", "13.0", List.of("-x"))).isNotEqualTo(base);
        assertThat(KernelCache.key("src", h, "sm_90", "12.8", List.of("-x"))).isNotEqualTo(base);
        assertThat(KernelCache.key("src", h, "sm_90", "13.0", List.of("-y"))).isNotEqualTo(base);
    }
}
