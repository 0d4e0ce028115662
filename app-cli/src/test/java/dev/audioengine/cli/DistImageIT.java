package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/dist: the jlink image, unpacked elsewhere, runs the VAD with its own runtime (JAVA_HOME
 * points nowhere and PATH has no JDK 25) and prints what the module-path launcher prints.
 * AUDIOENGINE_NO_BUILD=1: Maven has just packaged dist/lib.
 */
class DistImageIT {

    @Test
    void theUnpackedImageRunsTheVadWithoutAJdk(@TempDir Path unpacked) throws Exception {
        Path root = Dist.repoRoot();
        Dist.Result dist = Dist.run(
                List.of(root.resolve("scripts/dist").toString()),
                root,
                Map.of("AUDIOENGINE_NO_BUILD", "1", "JAVA_HOME", Dist.javaHome().toString()));
        assertThat(dist.exit()).as(dist.toString()).isZero();
        assertThat(dist.err()).as("jlink's incubator notice is filtered").doesNotContain("WARNING");
        Path tarball = root.resolve("app-cli/target/audioengine-image.tar.gz");
        assertThat(tarball).exists();

        Dist.Result untar =
                Dist.run(List.of("tar", "-xzf", tarball.toString(), "-C", unpacked.toString()), unpacked, Map.of());
        assertThat(untar.exit()).as(untar.toString()).isZero();
        Path image = unpacked.resolve("audioengine");
        assertThat(image.resolve("lib/modules")).exists();
        try (var files = Files.walk(image)) {
            assertThat(files.filter(p -> p.getFileName().toString().startsWith("audioengine-"))
                            .toList())
                    .as("modules are linked in, not shipped as jars")
                    .isEmpty();
        }

        Map<String, String> noJdk =
                Map.of("JAVA_HOME", unpacked.resolve("no-jdk-here").toString(), "PATH", "/usr/bin:/bin");
        Dist.Result modules =
                Dist.run(List.of(image.resolve("bin/java").toString(), "--list-modules"), unpacked, noJdk);
        assertThat(modules.out())
                .contains(
                        "dev.audioengine.backend.cpu@",
                        "dev.audioengine.backend.cuda@",
                        "dev.audioengine.backend.hip@",
                        "dev.audioengine.backend.vulkan@",
                        "dev.audioengine.models@",
                        "jdk.incubator.vector@");

        String speech = root.resolve("docs/examples/speech.wav").toString();
        Dist.Result fromImage = Dist.run(
                List.of(image.resolve("bin/audioengine").toString(), "--task", "vad", "--audio", speech),
                unpacked,
                noJdk);
        assertThat(fromImage.exit()).as(fromImage.toString()).isZero();
        assertThat(fromImage.err())
                .as(fromImage.toString())
                .doesNotContain("WARNING")
                .doesNotContain("restricted method")
                .contains("speech segments");
        Dist.Result fromLib = Dist.run(
                List.of(root.resolve("audioengine").toString(), "--task", "vad", "--audio", speech),
                unpacked,
                Map.of("AUDIOENGINE_NO_BUILD", "1", "JAVA_HOME", Dist.javaHome().toString()));
        assertThat(fromLib.exit()).as(fromLib.toString()).isZero();
        assertThat(fromImage.out())
                .as("the same segments as the module-path launcher")
                .isEqualTo(fromLib.out())
                .isNotBlank();
    }
}
