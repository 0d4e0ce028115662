package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** The packaged distribution for integration tests (failsafe passes its paths), and child-process runs. */
final class Dist {
    private Dist() {}

    /** app-cli/target/dist/lib, as built by 'package'. */
    static Path lib() {
        Path lib = Path.of(System.getProperty("audioengine.dist.lib", "target/dist/lib"))
                .toAbsolutePath()
                .normalize();
        assertThat(lib.resolve("audioengine-cli.jar"))
                .as("run integration tests after 'package' (mvn verify)")
                .exists();
        return lib;
    }

    static Path repoRoot() {
        return Path.of(System.getProperty("audioengine.repo.root", ".."))
                .toAbsolutePath()
                .normalize();
    }

    static List<Path> jars() throws IOException {
        try (Stream<Path> s = Files.list(lib())) {
            return s.filter(p -> p.getFileName().toString().endsWith(".jar"))
                    .sorted()
                    .toList();
        }
    }

    /** The JDK running the tests (25+), for child JVMs and as JAVA_HOME for the launcher. */
    static Path javaHome() {
        return Path.of(System.getProperty("java.home"));
    }

    record Result(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    /** Runs {@code command} in {@code dir} with extra environment variables; fails the test after 120 s. */
    static Result run(List<String> command, Path dir, Map<String, String> env)
            throws IOException, InterruptedException {
        Path out = Files.createTempFile("audioengine-it", ".out"), err = Files.createTempFile("audioengine-it", ".err");
        try {
            ProcessBuilder pb = new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            pb.environment().putAll(env);
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
}
