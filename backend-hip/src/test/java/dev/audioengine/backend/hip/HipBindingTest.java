package dev.audioengine.backend.hip;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The executor's bindings checked without an AMD GPU: entry points, struct layout, argument packing, cache key, kernel names. */
class HipBindingTest {

    @Test
    void everyRuntimeEntryPointTheExecutorUsesBindsAgainstTheInstalledRuntime() {
        HipLibrary lib = HipLibrary.find(HipLibrary.SONAMES, HipLibrary.defaultFolders());
        if (System.getenv("CI") != null) assertThat(lib.found()).as("CI installs libamdhip64-5").isTrue();
        assumeTrue(lib.found(), "libamdhip64 is not installed here");
        List<String> missing = new ArrayList<>();
        for (String name : HipApi.ENTRY_POINTS) if (lib.symbols().find(name).isEmpty()) missing.add(name);
        for (String name : HipVmmPool.ENTRY_POINTS) if (lib.symbols().find(name).isEmpty()) missing.add(name);
        assertThat(missing).as("exported by " + lib.location()).isEmpty();
        HipRuntime runtime = new HipRuntime(lib.symbols(), lib.location());
        HipApi api = new HipApi(runtime, lib.symbols(), lib.location()); // binds every handle
        assertThat(api.runtime()).isSameAs(runtime);
    }

    @Test
    void tensorDescriptorMatchesTheKernelsStruct() {
        // struct TD { i64 n[4]; i64 s[4]; } in ae_tensor.h
        assertThat(TensorDesc.LAYOUT.byteSize()).isEqualTo(64);
        assertThat(TensorDesc.LAYOUT.byteOffset(PathElement.groupElement("s"))).isEqualTo(32);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment s = a.allocate(TensorDesc.LAYOUT);
            new TensorDesc(new long[] {1, 2, 3, 4}, new long[] {0, 12, 4, 1}).write(s);
            assertThat(s.toArray(JAVA_LONG)).containsExactly(1, 2, 3, 4, 0, 12, 4, 1);
        }
    }

    @Test
    void launchArgumentsAreOneSlotPerParameterInOrder() {
        // hipModuleLaunchKernel's kernelParams: void*[], one pointer per parameter, each to its value
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = new LaunchArgs(a).i32(7).f32(1.5f).i64(1L << 40).ptr(0xdead0000L)
                    .desc(TensorDesc.padded(new long[] {5}, new long[] {1})).pack().reinterpret(5 * ADDRESS.byteSize());
            assertThat(p.getAtIndex(ADDRESS, 0).reinterpret(4).get(JAVA_INT, 0)).isEqualTo(7);
            assertThat(p.getAtIndex(ADDRESS, 1).reinterpret(4).get(JAVA_FLOAT, 0)).isEqualTo(1.5f);
            assertThat(p.getAtIndex(ADDRESS, 2).reinterpret(8).get(JAVA_LONG, 0)).isEqualTo(1L << 40);
            assertThat(p.getAtIndex(ADDRESS, 3).reinterpret(8).get(JAVA_LONG, 0)).isEqualTo(0xdead0000L);
            assertThat(p.getAtIndex(ADDRESS, 4).reinterpret(64).toArray(JAVA_LONG)).containsExactly(1, 1, 1, 5, 0, 0, 0, 1);
        }
    }

    @Test
    void cacheKeyChangesWithEverythingThatDecidesTheCodeObject() {
        Map<String, String> h = Map.of("gpu_compat.h", "a");
        String base = HipKernelCache.key("src", h, "gfx90a:sramecc+:xnack-", "5.2.21153", List.of("-x"));
        assertThat(HipKernelCache.key("src", h, "gfx90a:sramecc+:xnack-", "5.2.21153", List.of("-x"))).isEqualTo(base);
        assertThat(HipKernelCache.key("src2", h, "gfx90a:sramecc+:xnack-", "5.2.21153", List.of("-x"))).isNotEqualTo(base);
        assertThat(HipKernelCache.key("src", Map.of("gpu_compat.h", "b"), "gfx90a:sramecc+:xnack-", "5.2.21153", List.of("-x"))).isNotEqualTo(base);
        assertThat(HipKernelCache.key("src", h, "gfx90a:sramecc-:xnack-", "5.2.21153", List.of("-x"))).isNotEqualTo(base);
        assertThat(HipKernelCache.key("src", h, "gfx90a:sramecc+:xnack-", "6.4.43483", List.of("-x"))).isNotEqualTo(base);
        assertThat(HipKernelCache.key("src", h, "gfx90a:sramecc+:xnack-", "5.2.21153", List.of("-y"))).isNotEqualTo(base);
    }

    /** Every kernel the HIP Java side launches by name exists in the shared source file it names. */
    @Test
    void everyLaunchedKernelIsDefinedInItsSource() throws IOException {
        Pattern launch = Pattern.compile("\"(elementwise|layout|linear|norm|sequence|spectral)\", \"(ae_[a-z0-9_]+)\"|SRC, \"(ae_[a-z0-9_]+)\"");
        Pattern src = Pattern.compile("String SRC = \"([a-z]+)\"");
        List<String> missing = new ArrayList<>();
        int seen = 0;
        try (var files = Files.list(Path.of("src/main/java/dev/audioengine/backend/hip"))) {
            for (Path f : files.toList()) {
                String text = Files.readString(f);
                Matcher sm = src.matcher(text);
                String own = sm.find() ? sm.group(1) : null;
                Matcher m = launch.matcher(text);
                while (m.find()) {
                    String file = m.group(1) != null ? m.group(1) : own;
                    String kernel = m.group(2) != null ? m.group(2) : m.group(3);
                    seen++;
                    if (!HipKernelSources.text(file + ".cu").contains("GC_KERNEL void " + kernel + "(")) missing.add(file + ".cu: " + kernel);
                }
            }
        }
        assertThat(seen).as("kernel launches found in the Java sources").isGreaterThan(20);
        assertThat(missing).isEmpty();
    }

    @Test
    void graphsDefaultOffOnIntegratedGpusAndTheSwitchIsStrict() {
        var none = dev.audioengine.api.spi.BackendConfig.defaults();
        assertThat(HipBackend.onOff(none, "hip.graphs", true)).isTrue();
        assertThat(HipBackend.onOff(none, "hip.graphs", false)).isFalse();
        var off = new dev.audioengine.api.spi.BackendConfig(0, Map.of("hip.graphs", "off"));
        assertThat(HipBackend.onOff(off, "hip.graphs", true)).isFalse();
        var bad = new dev.audioengine.api.spi.BackendConfig(0, Map.of("hip.graphs", "maybe"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> HipBackend.onOff(bad, "hip.graphs", true))
                .hasMessageContaining("hip.graphs must be on or off, got 'maybe'");
    }
}
