package dev.audioengine.api.graph;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every module that implements ops groups them by {@link Op.Family} and by no other scheme: one file or package per
 * family, named after it, in the reference, the conformance cases, the CPU kernels, gpu-common's op classes and CUDA/HIP
 * kernel sources, and Vulkan's kernels. Reads the source tree beside this module (tests run in the module's folder),
 * so a file named after a grouping that is not a family ({@code NormReference}, {@code RowOps}, {@code norm.cu}) fails
 * here, as does a family missing from a module.
 */
class OpFamilyLayoutTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private static Set<String> computedFamilies(boolean capitalised) {
        return Arrays.stream(Op.Family.values())
                .filter(f -> f != Op.Family.LEAF)
                .map(f -> capitalised ? Character.toUpperCase(f.id().charAt(0)) + f.id().substring(1) : f.id())
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** The family part of every file in {@code dir} whose name ends in {@code suffix}, minus the listed non-family files. */
    private static Set<String> prefixes(String dir, String suffix, Set<String> notFamilies) throws IOException {
        try (Stream<Path> files = Files.list(ROOT.resolve(dir))) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(suffix))
                    .map(n -> n.substring(0, n.length() - suffix.length()))
                    .filter(n -> !notFamilies.contains(n))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    @Test
    void everyModuleGroupsOpsByTheSameFamilies() throws IOException {
        Set<String> families = computedFamilies(true);
        assertThat(prefixes("reference/src/main/java/dev/audioengine/reference", "Reference.java", Set.of("Float64")))
                .as("reference: one <Family>Reference per family")
                .isEqualTo(families);
        assertThat(prefixes("conformance/src/main/java/dev/audioengine/conformance", "Cases.java", Set.of()))
                .as("conformance: one <Family>Cases per family")
                .isEqualTo(families);
        assertThat(prefixes("gpu-common/src/main/java/dev/audioengine/gpu/ops", "Ops.java", Set.of("Gpu")))
                .as("gpu-common: one <Family>Ops per family")
                .isEqualTo(families);
        assertThat(prefixes(
                        "backend-vulkan/src/main/java/dev/audioengine/backend/vulkan/kernels",
                        "Kernels.java",
                        Set.of("Vulkan")))
                .as("Vulkan: one <Family>Kernels per family")
                .isEqualTo(families);
        assertThat(prefixes("gpu-common/src/main/resources/dev/audioengine/gpu/kernels", ".cu", Set.of()))
                .as("CUDA/HIP: one kernels/<family>.cu per family")
                .isEqualTo(computedFamilies(false));
        try (Stream<Path> dirs =
                Files.list(ROOT.resolve("backend-cpu/src/main/java/dev/audioengine/backend/cpu/kernels"))) {
            List<String> packages = dirs.filter(Files::isDirectory)
                    .map(p -> p.getFileName().toString())
                    .sorted()
                    .toList();
            assertThat(packages)
                    .as("CPU: one kernels.<family> package per family")
                    .containsExactlyElementsOf(computedFamilies(false));
        }
    }
}
