package dev.audioengine.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The production image leaves the diagnostics out: {@code scripts/dist --no-tools} links no jar that holds a class of
 * the tools, bench, conformance, reference or evaluation modules, and the CLI on exactly those jars answers
 * {@code bench} with the usage error that names the tools jar. The default image keeps them, and the launcher's
 * {@code bench} finds its subcommands through ServiceLoader on the module path. Runs after 'package', when app-tools
 * has added its jars to app-cli/target/dist/lib; {@code --list} stops before jlink.
 */
class DistNoToolsIT {
    private static final List<String> TOOL_PACKAGES = List.of(
            "dev/audioengine/tools/",
            "dev/audioengine/bench/",
            "dev/audioengine/conformance/",
            "dev/audioengine/reference/",
            "dev/audioengine/evaluation/");

    private static Path root() {
        return Path.of(System.getProperty("audioengine.repo.root", ".."))
                .toAbsolutePath()
                .normalize();
    }

    private static Path javaHome() {
        return Path.of(System.getProperty("java.home"));
    }

    record Result(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    private static Result run(List<String> command) throws IOException, InterruptedException {
        Path out = Files.createTempFile("audioengine-it", ".out"), err = Files.createTempFile("audioengine-it", ".err");
        try {
            ProcessBuilder pb = new ProcessBuilder(command)
                    .directory(root().toFile())
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            pb.environment()
                    .putAll(Map.of(
                            "AUDIOENGINE_NO_BUILD", "1", "JAVA_HOME", javaHome().toString()));
            Process p = pb.start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("timed out after 120 s: " + command + "\n" + Files.readString(err));
            }
            return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static List<Path> listed(String... options) throws Exception {
        List<String> command =
                new ArrayList<>(List.of(root().resolve("scripts/dist").toString()));
        command.addAll(List.of(options));
        command.add("--list");
        Result r = run(command);
        assertThat(r.exit()).as(r.toString()).isZero();
        return r.out().lines().map(Path::of).toList();
    }

    private static List<String> names(List<Path> jars) {
        return jars.stream().map(p -> p.getFileName().toString()).toList();
    }

    @Test
    void theProductionImageHoldsNoToolClasses() throws Exception {
        List<Path> jars = listed("--no-tools");
        assertThat(names(jars))
                .contains(
                        "audioengine-cli.jar",
                        "audioengine-server.jar",
                        "audioengine-models.jar",
                        "audioengine-backend-cpu.jar")
                .doesNotContain(
                        "audioengine-tools.jar",
                        "audioengine-bench.jar",
                        "audioengine-conformance.jar",
                        "audioengine-reference.jar",
                        "audioengine-evaluation.jar");
        for (Path jar : jars) {
            try (ZipFile zip = new ZipFile(jar.toFile())) {
                List<String> tools = zip.stream()
                        .map(e -> e.getName())
                        .filter(n ->
                                n.endsWith(".class") && TOOL_PACKAGES.stream().anyMatch(n::startsWith))
                        .toList();
                assertThat(tools).as(jar + " holds classes of the tools").isEmpty();
            }
        }
    }

    @Test
    void theDefaultImageKeepsTheTools() throws Exception {
        assertThat(names(listed()))
                .contains(
                        "audioengine-cli.jar",
                        "audioengine-tools.jar",
                        "audioengine-bench.jar",
                        "audioengine-conformance.jar",
                        "audioengine-reference.jar");
    }

    @Test
    void withoutTheToolsBenchSaysWhichJarItNeeds(@TempDir Path lib) throws Exception {
        for (Path jar : listed("--no-tools")) Files.copy(jar, lib.resolve(jar.getFileName()));
        Result r = run(List.of(
                javaHome().resolve("bin/java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-p",
                lib.toString(),
                "-m",
                "dev.audioengine.cli/dev.audioengine.cli.Main",
                "bench",
                "ops"));
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).contains("'bench' is a diagnostic of the tools jar (audioengine-tools.jar");
    }

    @Test
    void theLauncherFindsTheToolsOnTheModulePath() throws Exception {
        Result r = run(List.of(root().resolve("audioengine").toString(), "bench", "--help"));
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("Usage: audioengine bench", "ops", "vad", "asr", "tts", "gemm");
    }
}
