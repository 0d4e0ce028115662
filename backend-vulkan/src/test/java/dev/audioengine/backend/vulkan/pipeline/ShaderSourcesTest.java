package dev.audioengine.backend.vulkan.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The committed SPIR-V matches its GLSL: every shader's source hash (source + includes) equals
 * the one recorded when it was compiled (no glslang needed), every shader has a .spv and an enum
 * entry, and, where glslangValidator is installed, recompiling gives the committed bytes.
 */
class ShaderSourcesTest {
    private static final Path GLSL = Path.of("src/main/glsl");
    private static final Path SPV = Path.of("src/main/resources/dev/audioengine/backend/vulkan/shaders");

    private static List<Path> shaders() throws IOException {
        try (Stream<Path> s = Files.list(GLSL)) {
            return s.filter(p -> p.toString().endsWith(".comp")).sorted().toList();
        }
    }

    private static String name(Path comp) {
        return comp.getFileName().toString().replace(".comp", "");
    }

    private static String sourceHash(Path comp) throws IOException, NoSuchAlgorithmException {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        sha.update(Files.readAllBytes(comp));
        try (Stream<Path> s =
                Files.list(GLSL)) { // includes in byte order of their names, as compile-shaders (LC_ALL=C) does
            for (Path include :
                    s.filter(p -> p.toString().endsWith(".glsl")).sorted().toList())
                sha.update(Files.readAllBytes(include));
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private static Map<String, String> manifest() throws IOException {
        return Files.readAllLines(SPV.resolve("sources.sha256")).stream()
                .map(l -> l.split("  "))
                .collect(Collectors.toMap(p -> p[1], p -> p[0], (a, b) -> a, TreeMap::new));
    }

    @Test
    void everySpirvWasCompiledFromTheCurrentSource() throws Exception {
        Map<String, String> recorded = manifest();
        for (Path comp : shaders()) {
            assertThat(recorded.get(name(comp)))
                    .as(comp + " changed since its .spv was compiled: run backend-vulkan/compile-shaders")
                    .isEqualTo(sourceHash(comp));
            assertThat(SPV.resolve(name(comp) + ".spv")).exists();
        }
        assertThat(recorded.keySet())
                .containsExactlyInAnyOrderElementsOf(
                        shaders().stream().map(ShaderSourcesTest::name).toList());
    }

    @Test
    void theShaderEnumAndTheSourcesAgree() throws Exception {
        List<String> enumNames = Arrays.stream(Shader.values())
                .map(s -> s.name().toLowerCase(Locale.ROOT))
                .sorted()
                .toList();
        assertThat(enumNames)
                .containsExactlyElementsOf(
                        shaders().stream().map(ShaderSourcesTest::name).sorted().toList());
        for (Shader s : Shader.values()) {
            try (InputStream in = Pipelines.class.getResourceAsStream(s.resource())) {
                assertThat(in).as(s.resource() + " on the class path").isNotNull();
                byte[] head = in.readNBytes(4);
                assertThat(head).as("SPIR-V magic of " + s).containsExactly(0x03, 0x02, 0x23, 0x07);
            }
        }
    }

    @Test
    void glslangRecompilesEveryShaderToTheCommittedBytes(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        assumeTrue(onPath("glslangValidator"), "glslangValidator is not installed (Debian: glslang-tools)");
        for (Path comp : shaders()) {
            Path out = tmp.resolve(name(comp) + ".spv");
            Process p = new ProcessBuilder(
                            "glslangValidator",
                            "-V",
                            "--target-env",
                            "vulkan1.1",
                            "-I" + GLSL,
                            comp.toString(),
                            "-o",
                            out.toString())
                    .redirectErrorStream(true)
                    .start();
            String log = new String(p.getInputStream().readAllBytes());
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(log).isZero();
            assertThat(Files.readAllBytes(out))
                    .as(comp + " compiles to other bytes than the committed .spv: run backend-vulkan/compile-shaders")
                    .isEqualTo(Files.readAllBytes(SPV.resolve(name(comp) + ".spv")));
        }
    }

    private static boolean onPath(String tool) {
        String path = System.getenv("PATH");
        return path != null
                && Arrays.stream(path.split(java.io.File.pathSeparator))
                        .anyMatch(d -> Files.isExecutable(Path.of(d, tool)));
    }
}
