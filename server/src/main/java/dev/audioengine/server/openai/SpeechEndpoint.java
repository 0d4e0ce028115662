package dev.audioengine.server.openai;

import dev.audioengine.model.output.JsonWriter;
import dev.audioengine.model.task.SpeechSynthesizer;
import dev.audioengine.model.task.SpeechSynthesizer.SpeechPiece;
import dev.audioengine.model.task.SynthesisOptions;
import dev.audioengine.server.http.ApiError;
import dev.audioengine.server.http.Endpoint;
import dev.audioengine.server.http.JsonBody;
import dev.audioengine.server.http.RequestNote;
import dev.audioengine.server.http.UploadWatchdog;
import dev.audioengine.server.serving.Metrics;
import dev.audioengine.server.serving.ServedModel;
import dev.audioengine.server.serving.ServedModels;
import dev.audioengine.server.serving.Synthesis;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * {@code POST /v1/audio/speech}: OpenAI's speech request, answered by a served speech synthesizer. The request is
 * checked (fields, model, voice) before it waits for a worker; the status and headers then wait for the first piece
 * of audio, so every failure before it is an ordinary HTTP error. After that the audio goes out whole, chunk by chunk
 * as each piece of the text is synthesized, or as {@code speech.audio.delta} events (see {@link SpeechRequest.Delivery});
 * a client that hangs up stops the synthesis at the next piece and the worker returns to the pool.
 */
public final class SpeechEndpoint implements Endpoint.Body {
    /** The response header naming the voice spoken with, where the request named it otherwise (OpenAI's names). */
    public static final String VOICE_HEADER = "X-Audioengine-Voice";

    private final ServedModels models;
    private final Metrics metrics;
    private final UploadWatchdog watchdog;
    private final long maxJsonBytes;
    private final int maxInputChars;

    public SpeechEndpoint(
            ServedModels models, Metrics metrics, UploadWatchdog watchdog, long maxJsonBytes, int maxInputChars) {
        this.models = models;
        this.metrics = metrics;
        this.watchdog = watchdog;
        this.maxJsonBytes = maxJsonBytes;
        this.maxInputChars = maxInputChars;
    }

    @Override
    public void handle(ServerRequest req, ServerResponse res) throws Exception {
        long t0 = System.nanoTime();
        RequestNote note = req.context().get(RequestNote.class).orElseThrow();
        SpeechRequest r = SpeechRequest.of(JsonBody.read(req, res, maxJsonBytes, watchdog), maxInputChars);
        ServedModel model = models.requireSpeech(r.model());
        note.model(model.id());
        // no Accept check for sse: the request asked for events by name, and OpenAI's SDKs send Accept:
        // application/octet-stream
        if (!r.ignored().isEmpty()) {
            res.header(TranscriptionEndpoint.IGNORED_HEADER, String.join(",", r.ignored()));
            note.note("accepted without effect: " + String.join(", ", r.ignored()));
        }
        ServedModel.Replica replica = model.replica();
        SpeechSynthesizer tts = replica.get(SpeechSynthesizer.class);
        String voice = r.voice().map(v -> voice(v, tts, model, res, note)).orElse(null);
        SynthesisOptions options = new SynthesisOptions(voice, r.speed());
        Synthesis s = Synthesis.start(replica.pool(), tts, r.input(), options);
        try {
            SpeechPiece first = s.next();
            if (first == null) throw ApiError.invalid("input", "the input has nothing to say: no speakable characters");
            note.note(String.format(Locale.ROOT, "first audio after %.0f ms", (System.nanoTime() - t0) / 1e6));
            switch (r.delivery()) {
                case WHOLE -> whole(res, r.format(), s, first);
                case AUDIO -> audio(res, r.format(), s, first, note);
                case SSE -> events(res, r.format(), s, first, note);
            }
        } finally {
            s.close(); // the worker has let go: what it made counts, a piece finished after the client left included
            if (s.pieceCount() > 0) {
                metrics.processed(model.id(), s.audioSeconds(), s.modelSeconds());
                note.audio(s.audioSeconds(), s.modelSeconds());
                note.note(s.pieceCount() + (s.pieceCount() == 1 ? " piece" : " pieces")
                        + (voice == null ? "" : ", voice " + voice) + ", " + r.format().wireName);
            }
        }
    }

    /**
     * The model's voice for {@code asked}: one of its own, or the namesake of an OpenAI voice; anything else is a 400
     * that lists the voices.
     */
    private static String voice(
            String asked, SpeechSynthesizer tts, ServedModel model, ServerResponse res, RequestNote note) {
        List<String> names =
                tts.voices().stream().map(SpeechSynthesizer.Voice::name).toList();
        if (names.contains(asked)) return asked;
        String lower = asked.toLowerCase(Locale.ROOT);
        if (names.contains(lower)) return lower;
        String mapped = OpenAiVoices.voiceFor(lower).filter(names::contains).orElse(null);
        if (mapped != null) {
            res.header(VOICE_HEADER, mapped);
            note.note("OpenAI's voice " + lower + " is " + mapped);
            return mapped;
        }
        List<String> openAi = OpenAiVoices.TABLE.entrySet().stream()
                .filter(e -> names.contains(e.getValue()))
                .map(e -> e.getKey() + " (" + e.getValue() + ")")
                .toList();
        throw ApiError.invalid(
                "voice",
                "unknown voice '" + asked + "'; " + model.id() + " has " + String.join(", ", names)
                        + (openAi.isEmpty()
                                ? ""
                                : "; of OpenAI's voices, " + String.join(", ", openAi) + " stand for its namesakes")
                        + " (GET /v1/audio/voices)");
    }

    private static void whole(ServerResponse res, SpeechFormat format, Synthesis s, SpeechPiece first)
            throws Exception {
        float[] all = join(s, first);
        res.header(HeaderNames.CONTENT_TYPE, format.mediaType(s.sampleRate()));
        res.send(format.whole(all, s.sampleRate()));
    }

    private static float[] join(Synthesis s, SpeechPiece first) throws Exception {
        List<float[]> parts = new java.util.ArrayList<>();
        long n = 0;
        for (SpeechPiece p = first; p != null; p = s.next()) {
            parts.add(p.samples());
            n += p.samples().length;
        }
        float[] all = new float[Math.toIntExact(n)];
        int at = 0;
        for (float[] part : parts) {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
    }

    /**
     * Chunked: WAV's streaming header (or nothing, for pcm), then each piece's samples as it is made. A failure after
     * the first bytes ends the connection without the last chunk, so the client sees a cut body, never a short one
     * that looks whole.
     */
    private static void audio(
            ServerResponse res, SpeechFormat format, Synthesis s, SpeechPiece first, RequestNote note) {
        res.header(HeaderNames.CONTENT_TYPE, format.mediaType(s.sampleRate()));
        OutputStream out = res.outputStream();
        try {
            out.write(format.streamHeader(s.sampleRate()));
            for (SpeechPiece p = first; p != null; p = s.next()) {
                out.write(SpeechFormat.pcm16(p.samples()));
                out.flush();
            }
            out.close();
        } catch (UncheckedIOException | CloseConnectionException | java.io.IOException e) {
            // a write failed: the client has gone. Helidon would try to finish the body on the dead connection; it is
            // ended instead
            throw new Endpoint.StreamCut("client closed the stream", e);
        } catch (Exception e) {
            note.note("failed after the audio began: " + e.getMessage());
            throw new Endpoint.BrokenStream("the synthesis failed after its audio began: " + e, e);
        }
    }

    /**
     * OpenAI's speech events: {@code data: {"type": "speech.audio.delta", "audio": BASE64}} per piece (the first one
     * starting with WAV's streaming header), then {@code data: {"type": "speech.audio.done"}}. The deltas' bytes joined
     * are the stream_format=audio body. OpenAI's done event carries token usage; Kokoro's tokens are phonemes, not
     * OpenAI's, so none is made up. A failure after the events began is an {@code error} event. Written to the body
     * directly rather than through Helidon's SSE sink, which refuses a request whose Accept header does not name
     * text/event-stream, and OpenAI's SDKs ask for speech with Accept: application/octet-stream.
     */
    private static void events(
            ServerResponse res, SpeechFormat format, Synthesis s, SpeechPiece first, RequestNote note) {
        res.header(HeaderNames.CONTENT_TYPE, "text/event-stream");
        res.header(HeaderNames.CACHE_CONTROL, "no-cache");
        OutputStream out = res.outputStream();
        try {
            byte[] header = format.streamHeader(s.sampleRate());
            try {
                for (SpeechPiece p = first; p != null; p = s.next()) {
                    byte[] samples = SpeechFormat.pcm16(p.samples());
                    byte[] chunk = samples;
                    if (header.length > 0) {
                        chunk = new byte[header.length + samples.length];
                        System.arraycopy(header, 0, chunk, 0, header.length);
                        System.arraycopy(samples, 0, chunk, header.length, samples.length);
                        header = new byte[0];
                    }
                    event(
                            out,
                            new JsonWriter()
                                    .beginObject()
                                    .name("type")
                                    .value("speech.audio.delta")
                                    .name("audio")
                                    .value(Base64.getEncoder().encodeToString(chunk))
                                    .endObject());
                }
            } catch (ApiError e) {
                note.note("failed after the stream began: " + e.getMessage());
                event(
                        out,
                        e.body(new JsonWriter()
                                        .beginObject()
                                        .name("type")
                                        .value("error")
                                        .name("error")
                                        .beginObject())
                                .endObject()
                                .endObject());
                out.close();
                return;
            } catch (UncheckedIOException | CloseConnectionException | java.io.IOException e) {
                throw e;
            } catch (Exception e) {
                note.note("failed after the stream began: " + e.getMessage());
                event(
                        out,
                        ApiError.internal("internal error: " + e)
                                .body(new JsonWriter()
                                        .beginObject()
                                        .name("type")
                                        .value("error")
                                        .name("error")
                                        .beginObject())
                                .endObject()
                                .endObject());
                throw new Endpoint.BrokenStream("the synthesis failed after its events began: " + e, e);
            }
            event(
                    out,
                    new JsonWriter()
                            .beginObject()
                            .name("type")
                            .value("speech.audio.done")
                            .endObject());
            out.close();
        } catch (UncheckedIOException | CloseConnectionException | java.io.IOException e) {
            if (e instanceof Endpoint.BrokenStream b) throw b;
            throw new Endpoint.StreamCut("client closed the stream", e);
        }
    }

    /** One Server-Sent Event: a data line and the blank line that ends it, sent at once. */
    static void event(OutputStream out, JsonWriter json) throws java.io.IOException {
        out.write(("data: " + json + "\n\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        out.flush();
    }
}
