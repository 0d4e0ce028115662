package dev.audioengine.gpu.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** KernelSources names every kernel file in the resources and reads each one from inside the module. */
class KernelSourcesTest {
    private static final Path KERNELS = Path.of("src/main/resources/dev/audioengine/gpu/kernels");

    @Test
    void everySourceAndBothHeadersAreListedAndReadable() throws IOException {
        List<String> cu, h;
        try (Stream<Path> files = Files.list(KERNELS)) {
            List<String> names =
                    files.map(p -> p.getFileName().toString()).sorted().toList();
            cu = names.stream()
                    .filter(n -> n.endsWith(".cu"))
                    .map(n -> n.substring(0, n.length() - 3))
                    .toList();
            h = names.stream().filter(n -> n.endsWith(".h")).toList();
        }
        assertThat(KernelSources.SOURCES).containsExactlyInAnyOrderElementsOf(cu);
        assertThat(KernelSources.HEADERS)
                .containsExactlyInAnyOrderElementsOf(h)
                .contains("gpu_compat.h", "ae_tensor.h");
        for (String s : KernelSources.SOURCES)
            assertThat(KernelSources.text(s + ".cu")).isEqualTo(Files.readString(KERNELS.resolve(s + ".cu")));
        assertThat(KernelSources.headers().keySet()).containsExactlyElementsOf(KernelSources.HEADERS);
        assertThat(KernelSources.headers().get("gpu_compat.h"))
                .isEqualTo(Files.readString(KERNELS.resolve("gpu_compat.h")));
    }

    @Test
    void aMissingSourceSaysWhichOnesExist() {
        assertThatThrownBy(() -> KernelSources.text("absent.cu"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("kernels/absent.cu is missing")
                .hasMessageContaining("reduction.cu");
    }

    /**
     * gpu-common binds no native code and reinterprets no native pointers (the vendor modules do), so
     * the launcher and the GPU scripts need not grant it native access.
     */
    @Test
    void theSharedModuleUsesNoRestrictedMethods() throws IOException {
        List<String> restricted =
                List.of("reinterpret(", "downcallHandle", "upcallStub", "libraryLookup", "Linker.", "System.load");
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String text = Files.readString(f);
                for (String r : restricted)
                    assertThat(text).as(f + " uses " + r).doesNotContain(r);
            }
        }
    }
}
