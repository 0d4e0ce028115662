package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.model.FamilyRegistry;
import dev.audioengine.model.ModelVariant;
import dev.audioengine.model.store.ModelStore;
import dev.audioengine.model.store.PullListener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 16, defect 13: {@code HOME=$(mktemp -d) ./audioengine ...} caches under that HOME, not the account's passwd home. */
class CacheHomeIT {
    @Test
    void theLauncherUsesTheCacheUnderHomeFromTheEnvironment(@TempDir Path dir) throws Exception {
        ModelVariant v6 =
                FamilyRegistry.load().variant("silero_vad").orElseThrow().variant();
        Path cached = ModelStore.userCache()
                .pull(v6, PullListener.SILENT)
                .values()
                .iterator()
                .next();
        Path home = Files.createDirectories(dir.resolve("home"));
        Path cache = Files.createDirectories(home.resolve(".cache/audioengine"));
        Files.copy(cached, cache.resolve(cached.getFileName()));

        Run r = launch(
                home,
                "--task",
                "vad",
                "--audio",
                Dist.repoRoot().resolve("docs/examples/speech.wav").toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out().lines().toList()).isNotEmpty();
        assertThat(r.err())
                .as("the model comes from HOME's cache, nothing is fetched")
                .doesNotContain("fetching");

        Path emptyHome = Files.createDirectories(dir.resolve("empty-home"));
        Run none = launch(
                emptyHome,
                "--task",
                "vad",
                "--audio",
                Dist.repoRoot().resolve("docs/examples/speech.wav").toString());
        assertThat(none.exit()).as(none.toString()).isZero();
        assertThat(none.err())
                .as("the pull goes to the new HOME")
                .contains("into " + emptyHome.resolve(".cache/audioengine"));
        assertThat(emptyHome.resolve(".cache/audioengine").resolve(cached.getFileName()))
                .exists();
    }

    /**
     * Issue 26: the first one-shot run keeps moonshine-tiny's prepared weights under the cache, the second maps them and
     * prints the same transcript, and {@code models clean} removes them and the AOT caches (the model files stay).
     */
    @Test
    void aOneShotRunKeepsPreparedWeightsTheNextReadsThemAndModelsCleanRemovesThem(@TempDir Path dir) throws Exception {
        Path home = Files.createDirectories(dir.resolve("home"));
        Path cache = Files.createDirectories(home.resolve(".cache/audioengine"));
        FamilyRegistry families = FamilyRegistry.load();
        for (String name : List.of("moonshine-tiny", "silero_vad")) {
            ModelVariant v = families.variant(name).orElseThrow().variant();
            for (Path f : ModelStore.userCache().pull(v, PullListener.SILENT).values()) {
                Files.copy(
                        f,
                        cache.resolve(f.getFileName()),
                        java.nio.file.StandardCopyOption.REPLACE_EXISTING); // both name Silero
            }
        }
        String wav = Dist.repoRoot().resolve("docs/examples/dashwood.wav").toString();
        Run first = launch(home, "--task", "asr", "--audio", wav, "--threads", "1");
        assertThat(first.exit()).as(first.toString()).isZero();
        try (var prepared = Files.list(cache.resolve("prepared"))) {
            assertThat(prepared.map(p -> p.getFileName().toString()).toList())
                    .as("encoder and decoder, each at Q8_0")
                    .hasSize(2)
                    .allMatch(n -> n.startsWith("moonshine-tiny-quantized-")
                            && n.contains(".q8_0.")
                            && n.endsWith(".prepared"));
        }
        Run second = launch(home, "--task", "asr", "--audio", wav, "--threads", "1");
        assertThat(second.exit()).as(second.toString()).isZero();
        assertThat(second.out()).isEqualTo(first.out()).contains("John Dashwood");

        // the JVM's AOT caches are derived too (the launcher's and spark-local's; planted here, since the launcher
        // builds its own in the background and may still be writing it)
        Path aot =
                Files.writeString(Files.createDirectories(cache.resolve("aot")).resolve("asr-1.aot"), "x");
        Path sparkAot = Files.writeString(
                Files.createDirectories(cache.resolve("spark-aot/0123456789abcdef"))
                        .resolve("k.aot"),
                "x");
        Run clean = launch(home, "models", "clean");
        assertThat(clean.exit()).as(clean.toString()).isZero();
        assertThat(clean.out()).contains("removed").contains("AOT caches").contains("the model files stay");
        assertThat(cache.resolve("prepared")).doesNotExist();
        assertThat(aot).doesNotExist();
        assertThat(sparkAot).doesNotExist();
        assertThat(cache.resolve("moonshine-tiny-quantized-encoder_model.onnx")).exists();
    }

    record Run(int exit, String out, String err) {}

    /** The launcher with HOME set and neither XDG_CACHE_HOME nor AUDIOENGINE_CACHE. */
    private static Run launch(Path home, String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(
                List.of(Dist.repoRoot().resolve("audioengine").toString()));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile("cache-home", ".out"), err = Files.createTempFile("cache-home", ".err");
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .directory(home.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
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
