package dev.audioengine.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.exec.RunSummary;
import dev.audioengine.audio.AudioStream;
import dev.audioengine.model.FamilyRegistry;
import dev.audioengine.model.ModelFamily;
import dev.audioengine.model.ModelLoader;
import dev.audioengine.model.ModelLocation;
import dev.audioengine.model.ModelVariant;
import dev.audioengine.model.Task;
import dev.audioengine.model.TaskModel;
import dev.audioengine.model.store.ModelStore;
import dev.audioengine.model.store.PullListener;
import dev.audioengine.model.task.AsrOptions;
import dev.audioengine.model.task.AsrStream;
import dev.audioengine.model.task.SpeechRecognizer;
import dev.audioengine.model.task.Transcript;
import dev.audioengine.model.task.TranscriptSegment;
import dev.audioengine.model.task.TranscriptWord;
import dev.audioengine.server.http.Routes;
import dev.audioengine.server.openai.TranscriptionEndpoint;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OpenAI's {@code timestamp_granularities[]=word} and verbose_json's {@code language} through the whole server, on a
 * scripted recognizer served from a path (so the server's part is tested without a model; the words' times themselves
 * are the whisper family's, checked against whisper.cpp in the models module): the request turns word timestamps on,
 * verbose_json lists the words (text without the leading space, start, end) and the segments' decoding statistics
 * (temperature, avg_logprob, compression_ratio, no_speech_prob), and a request without a language gets the one the
 * recognizer detected.
 */
class WordTimestampsEndpointTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static AudioEngine engine;
    static SpeechServer server;
    static volatile AsrOptions lastOptions;

    @BeforeAll
    static void start() throws Exception {
        Path model = Files.writeString(dir.resolve("model.words"), "scripted words\n");
        engine = AudioEngine.builder().backend("cpu").build();
        ModelLoader loader = new ModelLoader(
                FamilyRegistry.of(List.of(new Scripted())), ModelStore.userCache(), PullListener.SILENT);
        server = SpeechServer.start(
                ServerConfig.defaults(line -> System.err.println("[server] " + line))
                        .withModels(List.of("worded=" + model))
                        .withPort(0),
                engine,
                loader);
    }

    @AfterAll
    static void stop() {
        if (server != null) server.close();
        if (engine != null) engine.close();
    }

    private static HttpResponse<String> transcribe(Multipart form) throws Exception {
        return HttpClient.newHttpClient()
                .send(
                        form.post(server.uri().resolve(Routes.TRANSCRIPTIONS)).build(),
                        HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void wordGranularityListsTheWordsAndTheDetectedLanguage() throws Exception {
        HttpResponse<String> r = transcribe(new Multipart()
                .field("model", "worded")
                .field("response_format", "verbose_json")
                .field("timestamp_granularities[]", "segment")
                .field("timestamp_granularities[]", "word")
                .file(TestServer.SHORT_RECORDING));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(lastOptions.wordTimestamps()).isTrue();
        JsonNode doc = JSON.readTree(r.body());
        assertThat(doc.get("language").asText()).isEqualTo("de");
        assertThat(doc.get("text").asText()).isEqualTo("Hallo, Welt");
        JsonNode words = doc.get("words");
        assertThat(words).hasSize(2);
        assertThat(words.get(0).get("word").asText()).isEqualTo("Hallo,");
        assertThat(words.get(0).get("start").asDouble()).isEqualTo(0.25);
        assertThat(words.get(0).get("end").asDouble()).isEqualTo(0.75);
        assertThat(words.get(1).get("word").asText()).isEqualTo("Welt");
        assertThat(words.get(1).get("start").asDouble()).isEqualTo(0.75);
        assertThat(words.get(1).get("end").asDouble()).isEqualTo(1.5);
        assertThat(doc.get("segments")).hasSize(1);
        // a sampling recognizer's statistics, as OpenAI's verbose_json names them
        JsonNode segment = doc.get("segments").get(0);
        assertThat(segment.get("temperature").asDouble()).isEqualTo(0.4);
        assertThat(segment.get("avg_logprob").asDouble()).isEqualTo(-0.25);
        assertThat(segment.get("compression_ratio").asDouble()).isEqualTo(1.5);
        assertThat(segment.get("no_speech_prob").asDouble()).isEqualTo(0.0125);
    }

    @Test
    void withoutWordGranularityThereAreNoWordsAndTheLanguageAskedForStands() throws Exception {
        HttpResponse<String> r = transcribe(new Multipart()
                .field("model", "worded")
                .field("response_format", "verbose_json")
                .field("language", "fr")
                .file(TestServer.SHORT_RECORDING));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(lastOptions.wordTimestamps()).isFalse();
        JsonNode doc = JSON.readTree(r.body());
        assertThat(doc.has("words")).isFalse();
        assertThat(doc.get("language").asText()).isEqualTo("fr");
    }

    /**
     * OpenAI's temperature is the first of Whisper's fallback temperatures for a recognizer that samples (this one
     * takes any options), and accepted without effect by one that refuses it (Moonshine, EdgeCasesTest).
     */
    @Test
    void aTemperatureReachesARecognizerThatSamples() throws Exception {
        HttpResponse<String> r = transcribe(new Multipart()
                .field("model", "worded")
                .field("temperature", "0.4")
                .field("response_format", "json")
                .file(TestServer.SHORT_RECORDING));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(lastOptions.longForm().temperature()).isEqualTo(0.4);
        assertThat(lastOptions.longForm().temperatureIncrement())
                .isEqualTo(AsrOptions.DEFAULTS.longForm().temperatureIncrement());
        assertThat(r.headers().firstValue(TranscriptionEndpoint.IGNORED_HEADER)).isEmpty();
        transcribe(new Multipart().field("model", "worded").file(TestServer.SHORT_RECORDING));
        assertThat(lastOptions.longForm().temperature())
                .as("OpenAI's default, 0")
                .isEqualTo(0);
    }

    /** whisper.cpp's server's temperature_inc: the fallback's step; 0 decodes each window once. */
    @Test
    void aTemperatureIncrementSetsTheFallbacksStep() throws Exception {
        HttpResponse<String> r = transcribe(new Multipart()
                .field("model", "worded")
                .field("temperature_inc", "0")
                .field("response_format", "json")
                .file(TestServer.SHORT_RECORDING));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(lastOptions.longForm().temperatures()).containsExactly(0f);
        transcribe(new Multipart()
                .field("model", "worded")
                .field("temperature", "0.3")
                .field("temperature_inc", "0.35")
                .file(TestServer.SHORT_RECORDING));
        assertThat(lastOptions.longForm().temperature()).isEqualTo(0.3);
        assertThat(lastOptions.longForm().temperatureIncrement()).isEqualTo(0.35);
        HttpResponse<String> bad = transcribe(new Multipart()
                .field("model", "worded")
                .field("temperature_inc", "1.5")
                .file(TestServer.SHORT_RECORDING));
        assertThat(bad.statusCode()).as(bad.body()).isEqualTo(400);
        assertThat(JSON.readTree(bad.body()).get("error").get("param").asText()).isEqualTo("temperature_inc");
    }

    @Test
    void wordGranularityWantsVerboseJson() throws Exception {
        HttpResponse<String> r = transcribe(new Multipart()
                .field("model", "worded")
                .field("response_format", "json")
                .field("timestamp_granularities[]", "word")
                .file(TestServer.SHORT_RECORDING));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        JsonNode e = JSON.readTree(r.body()).get("error");
        assertThat(e.get("param").asText()).isEqualTo("timestamp_granularities[]");
        assertThat(e.get("message").asText()).contains("verbose_json");
    }

    /** One segment at 0.25-1.5 s saying "Hallo, Welt" in German (detected), its words timed when asked. */
    static final class Scripted implements ModelFamily {
        @Override
        public String name() {
            return "scripted_words";
        }

        @Override
        public String description() {
            return "one scripted segment with word times, for the server's tests";
        }

        @Override
        public Set<Task> tasks() {
            return Set.of(Task.ASR);
        }

        @Override
        public Set<Capability> uses() {
            return Set.of();
        }

        @Override
        public List<ModelVariant> variants() {
            return List.of();
        }

        @Override
        public String validate(Path path) throws IOException {
            if (!Files.readString(path).startsWith("scripted words"))
                throw new dev.audioengine.model.ModelFormatException(path + " is not a scripted-words file");
            return "scripted words";
        }

        @Override
        public TaskModel load(AudioEngine engine, ModelLocation location) {
            return new Recognizer();
        }
    }

    static final class Recognizer implements SpeechRecognizer {
        @Override
        public Task task() {
            return Task.ASR;
        }

        @Override
        public String describe() {
            return "scripted words";
        }

        @Override
        public java.util.Optional<RunSummary> runSummary() {
            return java.util.Optional.empty();
        }

        @Override
        public void close() {}

        @Override
        public int sampleRate() {
            return 16000;
        }

        @Override
        public TranscriptSegment transcribeWindow(float[] samples, long startSample, AsrOptions options) {
            lastOptions = options;
            List<TranscriptWord> words = options.wordTimestamps()
                    ? List.of(
                            new TranscriptWord(" Hallo,", 0.25, 0.75, 0.9), new TranscriptWord(" Welt", 0.75, 1.5, 0.8))
                    : List.of();
            return new TranscriptSegment(
                    4000,
                    24000,
                    16000,
                    "Hallo, Welt",
                    List.of(1, 2, 3),
                    words,
                    "de",
                    new dev.audioengine.model.task.DecodingStats(0.4, -0.25, 1.5, 0.0125));
        }

        @Override
        public Transcript transcribe(float[] samples, AsrOptions options) {
            return new Transcript(List.of(transcribeWindow(samples, 0, options)), samples.length / 16000.0, 3);
        }

        @Override
        public Transcript transcribe(AudioStream in, AsrOptions options, Consumer<TranscriptSegment> onSegment)
                throws IOException {
            if (in.sampleRate() != 16000) in = in.resampleTo(16000);
            Transcript t = transcribe(in.readAll().samples(), options);
            t.segments().forEach(onSegment);
            return t;
        }

        @Override
        public AsrStream stream(AsrOptions options) {
            throw new UnsupportedOperationException("no live stream in this test");
        }
    }
}
