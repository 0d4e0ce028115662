package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.cli.testkit.MiniJson;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real ./audioengine launcher on the module path, run from an unrelated directory.
 * AUDIOENGINE_NO_BUILD=1: Maven has just packaged dist/lib, and a nested build must not start here.
 */
class LauncherScriptIT {
    @TempDir
    static Path elsewhere;

    private static List<Map<String, Object>> listed;

    private static Dist.Result launch(Map<String, String> extraEnv, String... args) throws Exception {
        List<String> cmd =
                new ArrayList<>(List.of(Dist.repoRoot().resolve("audioengine").toString()));
        cmd.addAll(List.of(args));
        // AUDIOENGINE_AOT=off: tests that do not ask for the AOT cache leave the user's cache folder alone
        Map<String, String> env = new java.util.HashMap<>(
                Map.of("AUDIOENGINE_NO_BUILD", "1", "JAVA_HOME", Dist.javaHome().toString(), "AUDIOENGINE_AOT", "off"));
        env.putAll(extraEnv);
        return Dist.run(cmd, elsewhere, env);
    }

    @BeforeAll
    @SuppressWarnings("unchecked")
    static void listOnce() throws Exception {
        Dist.Result r = launch(Map.of(), "backends", "--json");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.err())
                .as("every module named for native access exists; no build was started")
                .doesNotContain("Unknown module")
                .doesNotContain("building")
                .doesNotContain("restricted method");
        listed = (List<Map<String, Object>>) MiniJson.parse(r.out().strip());
    }

    @Test
    void listsEveryPackagedBackendOnTheModulePath() {
        assertThat(listed).extracting(b -> b.get("name")).containsExactly("cpu", "cuda", "hip", "vulkan");
        assertThat(listed.getFirst()).containsEntry("available", true);
    }

    @Test
    void anUnavailableBackendExitsOneWithTheRegistryMessage() throws Exception {
        Map<String, Object> cuda = listed.get(1);
        org.junit.jupiter.api.Assumptions.assumeFalse((Boolean) cuda.get("available"), "CUDA is usable here");
        Dist.Result r = launch(Map.of(), "--backend", "cuda", "backends");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err())
                .contains("error: backend 'cuda' (CUDA) is unavailable: " + cuda.get("reason"))
                .contains("cpu (CPU): available")
                .doesNotContain("\tat ");
    }

    @Test
    void usageErrorsExitTwoAndVersionExitsZero() throws Exception {
        Dist.Result bad = launch(Map.of(), "--backend", "opencl", "backends");
        assertThat(bad.exit()).as(bad.toString()).isEqualTo(2);
        assertThat(bad.err()).contains("valid: cpu, cuda, hip, rocm, vulkan, metal, best");

        Dist.Result version = launch(Map.of(), "--version");
        assertThat(version.exit()).as(version.toString()).isZero();
        assertThat(version.out()).startsWith("audioengine ").doesNotContain("${");
    }

    @Test
    void aBackendJarDroppedIntoTheExtraLibFolderIsDiscovered(@TempDir Path work) throws Exception {
        Path extra = Files.createDirectories(work.resolve("extra"));
        buildFakeMetalBackend(work, extra.resolve("backend-metal.jar"));
        Dist.Result r = launch(Map.of("AUDIOENGINE_LIB_EXTRA", extra.toString()), "backends", "--json");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.err())
                .as("native access is granted to the dropped-in module")
                .doesNotContain("Unknown module");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> backends =
                (List<Map<String, Object>>) MiniJson.parse(r.out().strip());
        assertThat(backends).extracting(b -> b.get("name")).containsExactly("cpu", "cuda", "hip", "vulkan", "metal");
        assertThat(backends.getLast())
                .containsEntry("registryName", "Metal")
                .containsEntry("reason", "drop-in test backend");
    }

    /** Compiles and jars a minimal module providing a Metal BackendProvider, against the packaged API jar (audioengine-api.jar). */
    private static void buildFakeMetalBackend(Path work, Path jar) throws Exception {
        Path src = Files.createDirectories(work.resolve("src/dev/audioengine/backend/metal"));
        Files.writeString(work.resolve("src/module-info.java"), """
                module dev.audioengine.backend.metal {
                    requires dev.audioengine.api;
                    provides dev.audioengine.api.spi.BackendProvider with dev.audioengine.backend.metal.DropInMetalProvider;
                }
                """);
        Files.writeString(src.resolve("DropInMetalProvider.java"), """
                package dev.audioengine.backend.metal;

                import dev.audioengine.api.BackendType;
                import dev.audioengine.api.capability.Capability;
                import dev.audioengine.api.spi.*;
                import java.util.Set;

                public final class DropInMetalProvider implements BackendProvider {
                    public String registryName() { return "Metal"; }
                    public BackendType type() { return BackendType.METAL; }
                    public ProbeResult probe() { return ProbeResult.unavailable("drop-in test backend"); }
                    public Set<Capability> verifiedCapabilities() { return Set.of(); }
                    public Backend open(int device, BackendConfig config) { throw new BackendUnavailableException("test backend"); }
                }
                """);
        Path classes = work.resolve("classes");
        StringWriter log = new StringWriter();
        int javac = ToolProvider.findFirst("javac")
                .orElseThrow()
                .run(
                        new PrintWriter(log),
                        new PrintWriter(log),
                        "-d",
                        classes.toString(),
                        "-p",
                        Dist.lib().toString(),
                        work.resolve("src/module-info.java").toString(),
                        src.resolve("DropInMetalProvider.java").toString());
        assertThat(javac).as("javac: %s", log).isZero();
        int jarTool = ToolProvider.findFirst("jar")
                .orElseThrow()
                .run(
                        new PrintWriter(log),
                        new PrintWriter(log),
                        "--create",
                        "--file",
                        jar.toString(),
                        "-C",
                        classes.toString(),
                        ".");
        assertThat(jarTool).as("jar: %s", log).isZero();
    }

    @Test
    void theIncubatorWarningIsDroppedAndEveryOtherStderrLineKept() throws Exception {
        Dist.Result ok = launch(Map.of(), "backends");
        assertThat(ok.exit()).as(ok.toString()).isZero();
        assertThat(ok.err()).doesNotContain("Using incubator modules");
        Dist.Result bad = launch(Map.of(), "--backend", "opencl", "backends");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err())
                .doesNotContain("Using incubator modules")
                .contains("unknown backend 'opencl'")
                .contains("Run 'audioengine --help' for the options.");
    }

    /**
     * A fake JDK ($JAVA_HOME/bin/java, version 25 by its release file): it streams stdin to stdout
     * line by line, writes the warning among other stderr lines, and exits with FAKE_EXIT; on TERM it
     * writes a marker file and exits 143.
     */
    private static Path fakeJdk(Path dir) throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Files.writeString(dir.resolve("release"), "JAVA_VERSION=\"25.0.1\"\n");
        Path fakeJava = bin.resolve("java");
        Files.writeString(fakeJava, """
                #!/bin/bash
                trap 'echo terminated > "$FAKE_MARKER"; exit 143' TERM
                echo "before" >&2
                echo "WARNING: Using incubator modules: jdk.incubator.vector" >&2
                while IFS= read -r line; do echo "echo: $line"; done
                echo "WARNING: Using incubator modules: jdk.incubator.vector, but not alone on its line" >&2
                [ -n "$FAKE_SLEEP" ] && { sleep "$FAKE_SLEEP" & wait; }
                echo "after" >&2
                exit "$FAKE_EXIT"
                """);
        Files.setPosixFilePermissions(fakeJava, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        return dir;
    }

    @Test
    void stdinStdoutExitStatusAndOtherStderrPassThroughTheFilter(@TempDir Path work) throws Exception {
        Path jdk = fakeJdk(work.resolve("jdk"));
        ProcessBuilder pb = new ProcessBuilder(
                        Dist.repoRoot().resolve("audioengine").toString(), "--task", "vad")
                .directory(elsewhere.toFile());
        pb.environment()
                .putAll(Map.of(
                        "AUDIOENGINE_NO_BUILD",
                        "1",
                        "JAVA_HOME",
                        jdk.toString(),
                        "FAKE_EXIT",
                        "37",
                        "FAKE_MARKER",
                        work.resolve("marker").toString()));
        Process p = pb.start();
        try (var in = new java.io.PrintStream(p.getOutputStream(), true);
                var out = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream()))) {
            in.println("one");
            assertThat(out.readLine())
                    .as("stdout streams while stdin is still open")
                    .isEqualTo("echo: one");
            in.println("two");
            assertThat(out.readLine()).isEqualTo("echo: two");
        }
        assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(37);
        assertThat(new String(p.getErrorStream().readAllBytes()))
                .isEqualTo(
                        "before\nWARNING: Using incubator modules: jdk.incubator.vector, but not alone on its line\nafter\n");
    }

    @Test
    void terminatingTheLauncherTerminatesTheJvm(@TempDir Path work) throws Exception {
        Path jdk = fakeJdk(work.resolve("jdk")), marker = work.resolve("marker");
        ProcessBuilder pb = new ProcessBuilder(
                        Dist.repoRoot().resolve("audioengine").toString(), "backends")
                .directory(elsewhere.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectError(work.resolve("err").toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment()
                .putAll(Map.of(
                        "AUDIOENGINE_NO_BUILD",
                        "1",
                        "JAVA_HOME",
                        jdk.toString(),
                        "FAKE_EXIT",
                        "0",
                        "FAKE_SLEEP",
                        "60",
                        "FAKE_MARKER",
                        marker.toString()));
        Process p = pb.start();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!Files.readString(work.resolve("err")).contains("before") && System.nanoTime() < deadline)
            Thread.sleep(50);
        Thread.sleep(200);
        p.destroy(); // SIGTERM to the launcher
        assertThat(p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS))
                .as("the launcher exits")
                .isTrue();
        assertThat(p.exitValue()).isEqualTo(143);
        assertThat(marker).as("the JVM got TERM").hasContent("terminated\n");
    }

    /** A fake JDK (version 25 by its release file) whose java prints its arguments, one a line. */
    private static Path argumentsJdk(Path dir) throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Files.writeString(dir.resolve("release"), "JAVA_VERSION=\"25.0.1\"\n");
        Path fakeJava = bin.resolve("java");
        Files.writeString(fakeJava, "#!/bin/bash\nprintf '%s\\n' \"$@\"\n");
        Files.setPosixFilePermissions(fakeJava, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        return dir;
    }

    @Test
    void oneShotCommandsCompileTheCpuKernelsEarlyUnlessAskedNotTo(@TempDir Path work) throws Exception {
        String jdk = argumentsJdk(work.resolve("jdk")).toString();
        String scaling = "-XX:CompileCommand=CompileThresholdScaling,dev.audioengine.backend.cpu.kernels.*::*,0.05";
        String waiting = "-XX:CompileCommand=BackgroundCompilation,dev.audioengine.backend.cpu.kernels.*::*,false";

        Dist.Result oneShot = launch(Map.of("JAVA_HOME", jdk), "--task", "asr", "--audio", "x.wav");
        assertThat(oneShot.exit()).as(oneShot.toString()).isZero();
        assertThat(oneShot.out().lines()).contains(scaling, waiting, "-XX:-UseOnStackReplacement");
        Dist.Result vad = launch(Map.of("JAVA_HOME", jdk), "--task=vad", "--audio", "x.wav");
        assertThat(vad.out().lines()).contains(scaling, waiting, "-XX:-UseOnStackReplacement");
        Dist.Result tts = launch(Map.of("JAVA_HOME", jdk), "--task=tts", "--text", "x");
        assertThat(tts.out().lines())
                .as("on-stack replacement stays on where it was not measured to pay")
                .contains(scaling, waiting)
                .doesNotContain("-XX:-UseOnStackReplacement");

        Dist.Result server = launch(Map.of("JAVA_HOME", jdk), "serve");
        assertThat(server.out()).as("a server keeps the JVM's thresholds").doesNotContain("CompileCommand");

        Dist.Result plain = launch(Map.of("JAVA_HOME", jdk, "AUDIOENGINE_KERNEL_JIT", "default"), "--task", "asr");
        assertThat(plain.exit()).isZero();
        assertThat(plain.out()).doesNotContain("CompileCommand");

        Dist.Result bad = launch(Map.of("JAVA_HOME", jdk, "AUDIOENGINE_KERNEL_JIT", "fast"), "--task", "asr");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err())
                .contains("AUDIOENGINE_KERNEL_JIT=fast")
                .contains("early")
                .contains("default");
    }

    @Test
    void oneShotTaskJobsRecordAnAotCacheOnceAndThenUseIt(@TempDir Path work) throws Exception {
        String jdk = argumentsJdk(work.resolve("jdk")).toString();
        Path cache = work.resolve("cache");
        Map<String, String> env =
                Map.of("JAVA_HOME", jdk, "AUDIOENGINE_CACHE", cache.toString(), "AUDIOENGINE_AOT", "auto");

        Dist.Result first = launch(env, "--task", "asr", "--audio", "x.wav");
        assertThat(first.exit()).as(first.toString()).isZero();
        String record = first.out()
                .lines()
                .filter(l -> l.startsWith("-XX:AOTConfiguration="))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no record options: " + first))
                .substring("-XX:AOTConfiguration=".length());
        assertThat(first.out().lines()).contains("-XX:AOTMode=record");
        assertThat(Path.of(record).getParent()).isEqualTo(cache.resolve("aot"));
        assertThat(Path.of(record))
                .as("a record the JVM did not write leaves nothing behind")
                .doesNotExist();

        // the cache that record would have become (name: the key, then the launcher's pid)
        String name = Path.of(record).getFileName().toString();
        Path built = cache.resolve("aot").resolve(name.substring(0, name.indexOf('.')) + ".aot");
        Files.writeString(built, "stands in for a cache");
        Dist.Result second = launch(env, "--task", "asr", "--audio", "y.wav");
        assertThat(second.out().lines())
                .as("the next job of the task maps the cache, checksums verified")
                .contains("-XX:AOTCache=" + built, "-XX:+VerifySharedSpaces")
                .doesNotContain("-XX:AOTMode=record");

        Dist.Result otherTask = launch(env, "--task", "vad", "--audio", "x.wav");
        assertThat(otherTask.out())
                .as("one cache per task")
                .doesNotContain("-XX:AOTCache=")
                .contains("-XX:AOTMode=record");
        Dist.Result off = launch(
                Map.of("JAVA_HOME", jdk, "AUDIOENGINE_CACHE", cache.toString(), "AUDIOENGINE_AOT", "off"),
                "--task",
                "asr");
        assertThat(off.out()).doesNotContain("AOT");
        Dist.Result own = launch(
                Map.of(
                        "JAVA_HOME",
                        jdk,
                        "AUDIOENGINE_CACHE",
                        cache.toString(),
                        "AUDIOENGINE_AOT",
                        "auto",
                        "AUDIOENGINE_JAVA_OPTS",
                        "-XX:AOTCache=/elsewhere.aot"),
                "--task",
                "asr");
        assertThat(own.out().lines())
                .as("the caller's own AOT options win")
                .contains("-XX:AOTCache=/elsewhere.aot")
                .doesNotContain("-XX:AOTMode=record", "-XX:+VerifySharedSpaces", "-XX:AOTCache=" + built);
        Dist.Result server = launch(env, "serve");
        assertThat(server.out()).as("a server is not a one-shot job").doesNotContain("AOT");
        Dist.Result noTask = launch(env, "models", "list");
        assertThat(noTask.out()).as("only --task jobs").doesNotContain("AOT");
        Dist.Result bad = launch(Map.of("JAVA_HOME", jdk, "AUDIOENGINE_AOT", "maybe"), "--task", "asr");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("AUDIOENGINE_AOT=maybe").contains("auto").contains("off");
    }

    /**
     * A cache built for a new key (rebuilt jars, another JDK or option set) removes the task's caches beyond its three
     * most recently used, which a use marks by touching; other tasks' caches stay. A fake JDK writes the record and the
     * cache as the real one would.
     */
    @Test
    void aNewAotCacheKeepsOnlyTheTasksThreeMostRecentlyUsed(@TempDir Path work) throws Exception {
        Path jdk = Files.createDirectories(work.resolve("jdk/bin"));
        Files.writeString(work.resolve("jdk/release"), "JAVA_VERSION=\"25.0.1\"\n");
        Path fakeJava = jdk.resolve("java");
        Files.writeString(fakeJava, """
                #!/bin/bash
                for a in "$@"; do
                    case $a in
                        -XX:AOTMode=*) mode=${a#*=} ;;
                        -XX:AOTConfiguration=*) conf=${a#*=} ;;
                        -XX:AOTCache=*) cache=${a#*=} ;;
                    esac
                done
                [ "$mode" != record ] || echo recorded >"$conf"
                [ "$mode" != create ] || echo built >"$cache"
                exit 0
                """);
        Files.setPosixFilePermissions(fakeJava, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Path aot = Files.createDirectories(work.resolve("cache/aot"));
        long hourAgo = System.currentTimeMillis() - 3_600_000;
        for (int i = 1; i <= 4; i++) {
            Path old = Files.writeString(aot.resolve("asr-" + i + ".aot"), "old");
            Files.setLastModifiedTime(old, java.nio.file.attribute.FileTime.fromMillis(hourAgo + i * 60_000L));
        }
        Path otherTask = Files.writeString(aot.resolve("vad-9.aot"), "old");
        Files.setLastModifiedTime(otherTask, java.nio.file.attribute.FileTime.fromMillis(hourAgo));
        Map<String, String> env = Map.of(
                "JAVA_HOME", work.resolve("jdk").toString(),
                "AUDIOENGINE_CACHE", work.resolve("cache").toString(),
                "AUDIOENGINE_AOT", "auto");

        Dist.Result job = launch(env, "--task", "asr", "--audio", "x.wav");
        assertThat(job.exit()).as(job.toString()).isZero();
        java.util.List<String> left = java.util.List.of();
        for (long deadline = System.nanoTime() + 30_000_000_000L; System.nanoTime() < deadline; Thread.sleep(100)) {
            try (var files = Files.list(aot)) {
                left = files.map(p -> p.getFileName().toString()).sorted().toList();
            }
            if (left.stream().filter(n -> n.startsWith("asr-")).count() == 3 && !left.contains("asr-2.aot")) break;
        }
        assertThat(left)
                .as("the new cache, the two most recently used old ones, the other task's")
                .contains("asr-3.aot", "asr-4.aot", "vad-9.aot")
                .doesNotContain("asr-1.aot", "asr-2.aot")
                .filteredOn(n -> n.startsWith("asr-") && n.endsWith(".aot"))
                .hasSize(3);
        String built = left.stream()
                .filter(n -> n.startsWith("asr-") && !n.equals("asr-3.aot") && !n.equals("asr-4.aot"))
                .findFirst()
                .orElseThrow();
        assertThat(aot.resolve(built)).hasContent("built");

        Files.setLastModifiedTime(aot.resolve(built), java.nio.file.attribute.FileTime.fromMillis(hourAgo));
        Dist.Result next = launch(env, "--task", "asr", "--audio", "y.wav");
        assertThat(next.exit()).as(next.toString()).isZero();
        assertThat(Files.getLastModifiedTime(aot.resolve(built)).toMillis())
                .as("a use marks the cache as recently used")
                .isGreaterThan(hourAgo + 10 * 60_000L);
    }

    /**
     * With the real JVM: the first job builds a cache in the background, the next uses it with the same output, and
     * a damaged cache (a good header over a broken body, which crashed the JVM without checksums) is ignored.
     */
    @Test
    void aDamagedAotCacheIsIgnoredNotRun(@TempDir Path work) throws Exception {
        Path cache = work.resolve("cache");
        Map<String, String> env = Map.of("AUDIOENGINE_CACHE", cache.toString(), "AUDIOENGINE_AOT", "auto");
        Dist.Result first = launch(env, "--task", "asr", "--help");
        assertThat(first.exit()).as(first.toString()).isZero();
        assertThat(first.err()).doesNotContain("AOTConfiguration");
        Path built = null;
        for (long deadline = System.nanoTime() + 120_000_000_000L; built == null && System.nanoTime() < deadline; ) {
            try (var files = Files.list(cache.resolve("aot"))) {
                built = files.filter(f -> f.toString().endsWith(".aot"))
                        .findFirst()
                        .orElse(null);
            }
            if (built == null) Thread.sleep(200);
        }
        assertThat(built)
                .as("the cache the launcher builds after the first job")
                .isNotNull();

        Dist.Result mapped = launch(env, "--task", "asr", "--help");
        assertThat(mapped.exit()).as(mapped.toString()).isZero();
        assertThat(mapped.out()).isEqualTo(first.out());

        byte[] bytes = Files.readAllBytes(built);
        java.util.Arrays.fill(bytes, bytes.length / 3, bytes.length / 3 + 4096, (byte) 0x5a);
        Files.write(built, bytes);
        Dist.Result damaged = launch(env, "--task", "asr", "--help");
        assertThat(damaged.exit()).as(damaged.toString()).isZero();
        assertThat(damaged.out()).isEqualTo(first.out());
        assertThat(damaged.err()).doesNotContain("fatal error");

        Files.write(built, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        Dist.Result truncated = launch(env, "--task", "asr", "--help");
        assertThat(truncated.exit()).as(truncated.toString()).isZero();
        assertThat(truncated.out()).isEqualTo(first.out());
    }

    @Test
    void aMissingExtraLibFolderIsReportedNotIgnored() throws Exception {
        Dist.Result r = launch(
                Map.of("AUDIOENGINE_LIB_EXTRA", elsewhere.resolve("no-such-dir").toString()), "backends");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("AUDIOENGINE_LIB_EXTRA").contains("no-such-dir");
    }
}
