package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.cli.testkit.MiniJson;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The same jars on the class path: backends are found through META-INF/services. */
class ClassPathLaunchIT {

    @Test
    void backendsAreListedFromTheClassPath() throws Exception {
        String classPath = Dist.jars().stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
        Dist.Result r = Dist.run(
                List.of(
                        Dist.javaHome().resolve("bin/java").toString(),
                        "--add-modules",
                        "jdk.incubator.vector",
                        "--enable-native-access=ALL-UNNAMED",
                        "-cp",
                        classPath,
                        "dev.audioengine.cli.Main",
                        "backends",
                        "--json"),
                Dist.lib(),
                Map.of());
        assertThat(r.exit()).as(r.toString()).isZero();
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> backends =
                (List<Map<String, Object>>) MiniJson.parse(r.out().strip());
        assertThat(backends).extracting(b -> b.get("registryName")).containsExactly("CPU", "CUDA", "ROCm", "Vulkan");
        assertThat(backends.getFirst()).containsEntry("available", true);
        assertThat((List<?>) backends.getFirst().get("devices")).hasSize(1);
    }

    /** The class path does not resolve incubator modules by default: the user gets the flag to add, not a NoClassDefFoundError. */
    @Test
    void withoutTheVectorModuleTheCpuSaysWhichFlagToAdd() throws Exception {
        String classPath = Dist.jars().stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
        Dist.Result r = Dist.run(
                List.of(
                        Dist.javaHome().resolve("bin/java").toString(),
                        "--enable-native-access=ALL-UNNAMED",
                        "-cp",
                        classPath,
                        "dev.audioengine.cli.Main",
                        "--task",
                        "vad",
                        "--audio",
                        Dist.repoRoot().resolve("docs/examples/speech.wav").toString()),
                Dist.lib(),
                Map.of());
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err())
                .as(r.toString())
                .contains(
                        "error: backend 'cpu' (CPU) is unavailable: CPU needs the module jdk.incubator.vector, which this JVM was started without: "
                                + "add --add-modules jdk.incubator.vector to the java command")
                .doesNotContain("NoClassDefFoundError")
                .doesNotContain("\tat ");
    }
}
