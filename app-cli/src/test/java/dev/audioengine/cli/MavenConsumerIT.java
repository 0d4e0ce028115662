package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The README's Maven promise: scripts/consumer-check installs this build into a temporary local
 * repository (mvn install -Dmaven.repo.local=...), builds docs/examples/consumer offline against it
 * alone, and runs it. Takes about three minutes on two busy cores (the nested install is most of it).
 */
class MavenConsumerIT {

    @Test
    void theMinimalConsumerProjectBuildsOfflineAndRuns() throws Exception {
        Path log = Files.createTempFile("consumer-check", ".log");
        try {
            ProcessBuilder pb = new ProcessBuilder(
                            Dist.repoRoot().resolve("scripts/consumer-check").toString())
                    .directory(Dist.repoRoot().toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            pb.environment()
                    .put(
                            "JAVA_HOME",
                            Dist.javaHome().toString()); // the JDK running the tests builds and runs the consumer
            Process p = pb.start();
            if (!p.waitFor(15, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new AssertionError("consumer-check timed out after 15 min:\n" + Files.readString(log));
            }
            String out = Files.readString(log);
            assertThat(p.exitValue()).as(out).isZero();
            assertThat(out)
                    .as(out)
                    .contains("relu [0.0, 0.0, 0.5, 2.0] on ")
                    .doesNotContain("WARNING: Using incubator");
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
