package dev.audioengine.cli;

import dev.audioengine.model.FamilyRegistry;
import dev.audioengine.model.ModelVariant;
import dev.audioengine.model.store.ModelStore;
import dev.audioengine.model.store.PullListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 16, defect 13: {@code HOME=$(mktemp -d) ./audioengine ...} caches under that HOME, not the account's passwd home. */
class CacheHomeIT {
    @Test
    void theLauncherUsesTheCacheUnderHomeFromTheEnvironment(@TempDir Path dir) throws Exception {
        ModelVariant v6 = FamilyRegistry.load().variant("silero_vad").orElseThrow().variant();
        Path cached = ModelStore.userCache().pull(v6, PullListener.SILENT).values().iterator().next();
        Path home = Files.createDirectories(dir.resolve("home"));
        Path cache = Files.createDirectories(home.resolve(".cache/audioengine"));
        Files.copy(cached, cache.resolve(cached.getFileName()));

        Run r = launch(home, "--task", "vad", "--audio", Dist.repoRoot().resolve("docs/examples/speech.wav").toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out().lines().toList()).isNotEmpty();
        assertThat(r.err()).as("the model comes from HOME's cache, nothing is fetched").doesNotContain("fetching");

        Path emptyHome = Files.createDirectories(dir.resolve("empty-home"));
        Run none = launch(emptyHome, "--task", "vad", "--audio", Dist.repoRoot().resolve("docs/examples/speech.wav").toString());
        assertThat(none.exit()).as(none.toString()).isZero();
        assertThat(none.err()).as("the pull goes to the new HOME").contains("into " + emptyHome.resolve(".cache/audioengine"));
        assertThat(emptyHome.resolve(".cache/audioengine").resolve(cached.getFileName())).exists();
    }

    record Run(int exit, String out, String err) {}

    /** The launcher with HOME set and neither XDG_CACHE_HOME nor AUDIOENGINE_CACHE. */
    private static Run launch(Path home, String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of(Dist.repoRoot().resolve("audioengine").toString()));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile("cache-home", ".out"), err = Files.createTempFile("cache-home", ".err");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(home.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().remove("XDG_CACHE_HOME");
        pb.environment().remove("AUDIOENGINE_CACHE");
        pb.environment().put("HOME", home.toString());
        pb.environment().put("AUDIOENGINE_NO_BUILD", "1");
        pb.environment().put("JAVA_HOME", Dist.javaHome().toString());
        Process p = pb.start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + cmd);
        }
        try {
            return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
