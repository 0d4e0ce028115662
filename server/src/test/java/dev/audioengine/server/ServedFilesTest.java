package dev.audioengine.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.audioengine.model.FamilyRegistry;
import dev.audioengine.model.ModelLoader;
import dev.audioengine.model.Task;
import dev.audioengine.server.http.Routes;
import dev.audioengine.server.serving.ServedModels;
import dev.audioengine.server.serving.ServedSource;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --models NAME=PATH} (an operator's file served under a name, the way to serve weights no variant pins) and the
 * transcription language and task: {@code language} reaches the recognizer, which refuses what it cannot hear before
 * any work is queued, and {@code POST /v1/audio/translations} asks for its translate task.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ServedFilesTest {
    @TempDir
    static Path dir;

    private static TestServer server;
    private static HttpClient http;
    private static Path sileroFile;
    private static final ObjectMapper JSON = new ObjectMapper();

    @BeforeAll
    static void start() throws Exception {
        ModelLoader loader = ModelLoader.standard(m -> {});
        sileroFile = loader.choose(Task.VAD, null, "silero_vad").location().path();
        server = TestServer.start(c -> c.withModels(List.of("moonshine-tiny", "my-vad=" + sileroFile)));
        http = HttpClient.newHttpClient();
    }

    @AfterAll
    static void stop() throws Exception {
        if (http != null) http.close();
        if (server != null) server.close();
    }

    private static HttpResponse<String> post(String route, Multipart form) throws Exception {
        return http.send(form.post(server.uri(route)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aFileIsServedUnderItsGivenName() throws Exception {
        HttpResponse<String> r =
                post(Routes.VAD, new Multipart().field("model", "MY-VAD").file(TestServer.SHORT_RECORDING));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode doc = JSON.readTree(r.body());
        assertThat(doc.get("model").asText()).isEqualTo("my-vad");
        assertThat(doc.get("segments")).isNotEmpty();
        JsonNode models = JSON.readTree(http.send(
                        java.net.http.HttpRequest.newBuilder(server.uri(Routes.MODELS))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body());
        assertThat(models.get("data").findValuesAsText("id")).containsExactly("moonshine-tiny", "my-vad");
        assertThat(models.get("data").get(1).get("owned_by").asText()).isEqualTo("silero_vad");
        // nothing a request sends is a path: the file's own path is not a model name
        HttpResponse<String> byPath = post(
                Routes.VAD,
                new Multipart().field("model", sileroFile.toString()).file(TestServer.SHORT_RECORDING));
        assertThat(byPath.statusCode()).as(byPath.body()).isEqualTo(404);
    }

    @Test
    void resolvingRefusesWhatCannotBeServedSayingWhy() throws Exception {
        FamilyRegistry registry = ModelLoader.standard(m -> {}).registry();
        List<ServedSource> ok = ServedModels.resolve(registry, List.of("silero_vad", "mine=" + sileroFile));
        assertThat(ok).extracting(ServedSource::id).containsExactly("silero_vad", "mine");
        assertThat(ok.get(1).task()).isEqualTo(Task.VAD);
        assertThat(ok.get(1).family().name()).isEqualTo("silero_vad");
        assertThat(ok.get(1).path()).isEqualTo(sileroFile.toAbsolutePath());

        Path text = Files.writeString(dir.resolve("notes.txt"), "not a model");
        String[][] cases = {
            {"mine=" + dir.resolve("missing.bin"), "no such file or folder"},
            {"mine=" + text, "no installed family can serve"},
            {"bad name=" + sileroFile, "use letters, digits"},
            {"kokoro=" + sileroFile, "kokoro is the name of an installed model"},
            {"nothing-such", "no installed model is named 'nothing-such'"},
        };
        for (String[] c : cases)
            assertThatThrownBy(() -> ServedModels.resolve(registry, List.of(c[0])))
                    .as(c[0])
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(c[1]);
        // each family's reason is in the message
        assertThatThrownBy(() -> ServedModels.resolve(registry, List.of("mine=" + text)))
                .hasMessageContaining("silero_vad: ")
                .hasMessageContaining("moonshine: ");
        assertThatThrownBy(() -> ServedModels.resolve(registry, List.of("a=" + sileroFile, "A=" + sileroFile)))
                .hasMessageContaining("names A twice");
        assertThatThrownBy(() -> ServedModels.resolve(registry, List.of("silero_vad", "silero_vad_v6")))
                .hasMessageContaining("twice");
    }

    @Test
    void theLanguageAndTaskReachTheRecognizer() throws Exception {
        HttpResponse<String> en = post(
                Routes.TRANSCRIPTIONS,
                new Multipart()
                        .field("model", "moonshine-tiny")
                        .field("language", "EN")
                        .field("response_format", "verbose_json")
                        .file(TestServer.SHORT_RECORDING));
        assertThat(en.statusCode()).as(en.body()).isEqualTo(200);
        assertThat(JSON.readTree(en.body()).get("language").asText()).isEqualTo("en");
        assertThat(JSON.readTree(en.body()).get("task").asText()).isEqualTo("transcribe");

        HttpResponse<String> de = post(
                Routes.TRANSCRIPTIONS,
                new Multipart()
                        .field("model", "moonshine-tiny")
                        .field("language", "de")
                        .file(TestServer.SHORT_RECORDING));
        assertThat(de.statusCode()).as(de.body()).isEqualTo(400);
        JsonNode e = JSON.readTree(de.body()).get("error");
        assertThat(e.get("code").asText()).isEqualTo("unsupported_language");
        assertThat(e.get("param").asText()).isEqualTo("language");
        assertThat(e.get("message").asText()).contains("moonshine-tiny", "English only", "hear language de");

        HttpResponse<String> badCode = post(
                Routes.TRANSCRIPTIONS,
                new Multipart()
                        .field("model", "moonshine-tiny")
                        .field("language", "german!")
                        .file(TestServer.SHORT_RECORDING));
        assertThat(badCode.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(badCode.body()).get("error").get("message").asText())
                .contains("a code such as en");

        HttpResponse<String> translate = post(
                Routes.TRANSLATIONS,
                new Multipart().field("model", "moonshine-tiny").file(TestServer.SHORT_RECORDING));
        assertThat(translate.statusCode()).as(translate.body()).isEqualTo(400);
        JsonNode t = JSON.readTree(translate.body()).get("error");
        assertThat(t.get("code").asText()).isEqualTo("unsupported_task");
        assertThat(t.get("message").asText()).contains("cannot translate");

        // OpenAI's translations endpoint takes no language
        HttpResponse<String> withLanguage = post(
                Routes.TRANSLATIONS,
                new Multipart()
                        .field("model", "moonshine-tiny")
                        .field("language", "de")
                        .file(TestServer.SHORT_RECORDING));
        assertThat(withLanguage.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(withLanguage.body()).get("error").get("param").asText())
                .isEqualTo("language");
    }
}
