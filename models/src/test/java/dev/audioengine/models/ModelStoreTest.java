package dev.audioengine.models;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ModelStoreTest {

    @Test
    void withoutNpmTheErrorNamesTheFileToPassWithModel(@TempDir Path dir) {
        ModelStore store = new ModelStore(dir, dir.resolve("no-such-npm").toString());
        assertThatThrownBy(() -> store.pull(ModelFile.SILERO_VAD_V5, List.of(), m -> {}))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("npm could not be started")
                .hasMessageContaining("dist/silero_vad_v5.onnx")
                .hasMessageContaining("@ricky0123/vad-web@0.0.31")
                .hasMessageContaining("--model PATH")
                .hasMessageContaining(ModelFile.SILERO_VAD_V5.sha256());
    }

    @Test
    void aFailingNpmIsReportedWithWhatItSaid(@TempDir Path dir) throws IOException {
        Path npm = script(dir, "echo 'npm error network request failed, reason: getaddrinfo ENOTFOUND' >&2; exit 1");
        ModelStore store = new ModelStore(dir.resolve("cache"), npm.toString());
        assertThatThrownBy(() -> store.pull(ModelFile.SILERO_VAD_V6, List.of(), m -> {}))
                .hasMessageContaining("failed (exit 1)").hasMessageContaining("ENOTFOUND").hasMessageContaining("--model PATH");
        assertThat(Files.exists(store.path(ModelFile.SILERO_VAD_V6))).isFalse();
    }

    @Test
    void aFileWithTheWrongHashIsNotCached(@TempDir Path dir) throws IOException {
        // a fake npm that packs a tarball whose model file is corrupt
        Path npm = script(dir, "mkdir -p package/dist && echo corrupt > package/dist/silero_vad_v5.onnx && tar czf fake-0.0.1.tgz package");
        ModelStore store = new ModelStore(dir.resolve("cache"), npm.toString());
        List<String> log = new ArrayList<>();
        assertThatThrownBy(() -> store.pull(ModelFile.SILERO_VAD_V5, List.of(), log::add))
                .hasMessageContaining("has sha256").hasMessageContaining("expected " + ModelFile.SILERO_VAD_V5.sha256());
        assertThat(Files.exists(store.path(ModelFile.SILERO_VAD_V5))).isFalse();
        assertThat(log).anyMatch(m -> m.startsWith("fetching silero_vad_v5.onnx"));
        try (var left = Files.list(dir.resolve("cache"))) {
            assertThat(left.toList()).as("temporary folders are removed").isEmpty();
        }
    }

    @Test
    void theUserCacheFollowsXdg() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path expected = xdg != null && !xdg.isBlank() ? Path.of(xdg, "audioengine") : Path.of(System.getProperty("user.home"), ".cache", "audioengine");
        assertThat(ModelStore.userCache().directory()).isEqualTo(expected);
    }

    private static Path script(Path dir, String body) throws IOException {
        Path p = dir.resolve("fake-npm");
        Files.writeString(p, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }
}
