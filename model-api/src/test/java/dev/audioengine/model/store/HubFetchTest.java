package dev.audioengine.model.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.model.ModelFile;
import dev.audioengine.model.ModelSource;
import dev.audioengine.model.ModelVariant;
import dev.audioengine.model.Task;
import dev.audioengine.model.testkit.FakeHub;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files pinned by the Hugging Face hub, against a loopback fake hub ({@link FakeHub}) that serves the model API's
 * metadata and the files: the commit and hashes come from the API and are recorded; a file whose bytes do not match
 * is refused and not cached; an unreachable hub says so; a cached, pinned file is used without the hub.
 */
class HubFetchTest {
    static final String REPO = "someone/tiny-model";
    final byte[] weights = new byte[300_001];
    final byte[] config = "{\"model_type\": \"whisper\", \"d_model\": 8}\n".getBytes(StandardCharsets.UTF_8);
    FakeHub hub;

    @BeforeEach
    void start() throws IOException {
        new SplittableRandom().nextBytes(weights);
        hub = new FakeHub().put(REPO, "model.safetensors", weights).put(REPO, "config.json", config);
    }

    @AfterEach
    void stop() {
        hub.close();
    }

    static ModelFile weightsFile() {
        return ModelFile.onHub(
                "tiny-model.safetensors", new ModelSource.HuggingFace(REPO, "main", "model.safetensors"));
    }

    static ModelFile configFile() {
        return ModelFile.onHub("tiny-model-config.json", new ModelSource.HuggingFace(REPO, "main", "config.json"));
    }

    static ModelVariant variant() {
        return new ModelVariant(
                "tiny-model", List.of(), Task.ASR, "a test model", List.of(weightsFile(), configFile()), "MIT");
    }

    ModelStore store(Path dir) {
        return new ModelStore(dir, "npm", hub.endpoint(), null);
    }

    @Test
    void bothKindsOfHubFileArePulledAtTheApisCommitAndPinnedByItsHashes(@TempDir Path dir) throws IOException {
        ModelStore store = store(dir);
        assertThat(store.has(variant())).isFalse();
        List<String> log = new ArrayList<>();
        var files = store.pull(variant(), log::add);
        assertThat(Files.readAllBytes(files.get("tiny-model.safetensors"))).isEqualTo(weights);
        assertThat(Files.readAllBytes(files.get("tiny-model-config.json"))).isEqualTo(config);
        assertThat(hub.count("/api/models/" + REPO + "/revision/main"))
                .as("one API call per repository")
                .isEqualTo(1);
        assertThat(hub.count("GET /" + REPO + "/resolve/" + hub.commit + "/model.safetensors"))
                .isEqualTo(1);
        HubPin w = store.hubPin(weightsFile()).orElseThrow();
        assertThat(w)
                .isEqualTo(new HubPin(
                        REPO, hub.commit, "model.safetensors", FakeHub.hex("SHA-256", weights), null, weights.length));
        HubPin c = store.hubPin(configFile()).orElseThrow();
        assertThat(c.sha256()).isEqualTo(FakeHub.hex("SHA-256", config));
        assertThat(c.gitBlob()).hasSize(40);
        assertThat(store.expectedSha256(weightsFile())).contains(FakeHub.hex("SHA-256", weights));
        assertThat(store.has(variant())).isTrue();
        assertThat(log).anyMatch(m -> m.contains("as the hub reports") && m.contains(hub.commit));
    }

    @Test
    void aCachedPinnedFileIsUsedWithoutTheHub(@TempDir Path dir) throws IOException {
        store(dir).pull(variant(), PullListener.SILENT);
        int before = hub.requests.size();
        hub.close(); // the network is gone
        ModelStore offline = new ModelStore(dir, "npm", URI.create("http://127.0.0.1:" + freePort()), null);
        assertThat(offline.has(variant())).isTrue();
        var files = offline.pull(variant(), PullListener.SILENT);
        assertThat(Files.readAllBytes(files.get("tiny-model.safetensors"))).isEqualTo(weights);
        assertThat(hub.requests).hasSize(before);
    }

    @Test
    void aCachedFileWhosePinWasLostIsCheckedAgainstTheHubAndNotDownloadedAgain(@TempDir Path dir) throws IOException {
        ModelStore store = store(dir);
        store.pull(variant(), PullListener.SILENT);
        Files.delete(HubPin.fileOf(dir, "tiny-model.safetensors"));
        assertThat(store.has(weightsFile())).isFalse();
        store.pull(variant(), PullListener.SILENT);
        assertThat(hub.count("GET /" + REPO + "/resolve/" + hub.commit + "/model.safetensors"))
                .isEqualTo(1);
        assertThat(store.has(weightsFile())).isTrue();
    }

    @Test
    void bytesOtherThanTheHubListsAreRefusedNamingBothHashesAndAreNotCached(@TempDir Path dir) {
        byte[] other = weights.clone();
        other[12345] ^= 1;
        hub.corrupt.put("model.safetensors", other);
        ModelStore store = store(dir);
        assertThatThrownBy(() -> store.pull(variant(), PullListener.SILENT))
                .hasMessageContaining("tiny-model.safetensors")
                .hasMessageContaining("the hub reports sha256 " + FakeHub.hex("SHA-256", weights))
                .hasMessageContaining("the downloaded bytes have sha256 " + FakeHub.hex("SHA-256", other))
                .hasMessageContaining("not caching them")
                .hasMessageContaining("Pull again");
        assertThat(dir.resolve("tiny-model.safetensors")).doesNotExist();
        assertThat(store.hubPin(weightsFile())).isEmpty();
        assertThat(dir.resolve(".partial")).isEmptyDirectory();
    }

    @Test
    void aGitFileIsCheckedAgainstItsBlobId(@TempDir Path dir) {
        hub.corrupt.put(
                "config.json", "{\"model_type\": \"whisper\", \"d_model\": 9}\n".getBytes(StandardCharsets.UTF_8));
        ModelStore store = store(dir);
        assertThatThrownBy(() -> store.pull(configFile(), PullListener.SILENT))
                .hasMessageContaining("the hub reports git blob id")
                .hasMessageContaining("not caching them");
        assertThat(dir.resolve("tiny-model-config.json")).doesNotExist();
    }

    @Test
    void anUnreachableHubSaysWhatWasTriedAndWhatToDo(@TempDir Path dir) throws IOException {
        URI dead = URI.create("http://127.0.0.1:" + freePort());
        ModelStore store = new ModelStore(dir, "npm", dead, null);
        assertThatThrownBy(() -> store.pull(variant(), PullListener.SILENT))
                .hasMessageContaining("could not ask the Hugging Face hub")
                .hasMessageContaining(dead.toString())
                .hasMessageContaining("HF_ENDPOINT")
                .hasMessageContaining("--model PATH");
        assertThat(dir.resolve("tiny-model.safetensors")).doesNotExist();
    }

    @Test
    void aFileTheHubDoesNotListAndAMissingRepositoryAreNamed(@TempDir Path dir) {
        ModelFile absent = ModelFile.onHub("x.bin", new ModelSource.HuggingFace(REPO, "main", "ggml-missing.bin"));
        assertThatThrownBy(() -> store(dir).pull(absent, PullListener.SILENT))
                .hasMessageContaining("the hub lists no ggml-missing.bin in " + REPO)
                .hasMessageContaining("model.safetensors");
        ModelFile noRepo = ModelFile.onHub("y.bin", new ModelSource.HuggingFace("nobody/none", "main", "y.bin"));
        assertThatThrownBy(() -> store(dir).pull(noRepo, PullListener.SILENT))
                .hasMessageContaining("HTTP 404")
                .hasMessageContaining("no repository nobody/none");
    }

    @Test
    void theTokenGoesToTheHubsHostOnlyNotToTheHostItRedirectsTo(@TempDir Path dir) throws IOException {
        hub.cdnHost = "localhost"; // another host name than the hub's 127.0.0.1
        new ModelStore(dir, "npm", hub.endpoint(), "hf_secret").pull(weightsFile(), PullListener.SILENT);
        assertThat(hub.requests).anyMatch(r -> r.startsWith("GET /api/models/") && r.endsWith(" auth"));
        assertThat(hub.requests).anyMatch(r -> r.contains("/resolve/") && r.endsWith(" auth"));
        assertThat(hub.requests).anyMatch(r -> r.startsWith("GET /cdn/") && !r.endsWith(" auth"));
        assertThat(hub.requests).noneMatch(r -> r.startsWith("GET /cdn/") && r.endsWith(" auth"));
    }

    @Test
    void aRedirectOffHttpsIsNotFollowed(@TempDir Path dir) {
        hub.cdnHost = "example.org"; // plain http to a host that is not loopback
        assertThatThrownBy(() -> store(dir).pull(weightsFile(), PullListener.SILENT))
                .hasMessageContaining("redirected to http://example.org")
                .hasMessageContaining("not https");
        assertThat(hub.requests).noneMatch(r -> r.startsWith("GET /cdn/"));
    }

    @Test
    void onlyAHubFileMayLeaveItsHashToTheHub() {
        assertThatThrownBy(() -> new ModelFile(
                        "a.bin", null, 0, List.of(new ModelSource.Https(URI.create("https://example.org/a.bin")))))
                .hasMessageContaining("only a file whose every source is the Hugging Face hub");
        assertThatThrownBy(() -> new ModelSource.HuggingFace("no-owner", "main", "a.bin"))
                .hasMessageContaining("owner/name");
        assertThatThrownBy(() -> new ModelSource.HuggingFace("a/b", "main", "../a.bin"))
                .hasMessageContaining("not a path inside");
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
