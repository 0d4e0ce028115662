package dev.audioengine.models.whisper;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.audio.AudioStream;
import dev.audioengine.model.Task;
import dev.audioengine.model.task.AsrOptions;
import dev.audioengine.model.task.AsrStream;
import dev.audioengine.model.task.DecodingStats;
import dev.audioengine.model.task.LongFormOptions;
import dev.audioengine.model.task.SpeechRecognizer;
import dev.audioengine.model.task.Transcript;
import dev.audioengine.model.task.TranscriptSegment;
import dev.audioengine.models.asr.LiveTranscription;
import dev.audioengine.models.asr.LongFormTranscriber;
import dev.audioengine.models.asr.WindowDecoder;
import dev.audioengine.models.silero.SileroVad;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Whisper as a {@link SpeechRecognizer}: offline, by default, Whisper's own long-form decoding (sequential 30 s
 * windows moved on by their timestamps, temperature fallback, the no-speech guard, conditioning on earlier text:
 * whisper.cpp's {@code whisper_full}, {@link WhisperLongForm}); on request ({@code LongFormOptions.Segmenter.VAD}),
 * and always for live streams, windows of speech found by the Silero VAD it owns (at most 30 s; the VAD driver joins
 * and cuts them as for Moonshine), each decoded once with timestamps, in the language given or detected per window.
 * Offline, a VAD window's segment is replaced by the segments its timestamp tokens delimit (on the recording's time
 * line); a live stream's segments are its windows.
 * Calls take turns on the model.
 */
public final class WhisperRecognizer implements SpeechRecognizer {
    /** Whisper's window: the longest a VAD window may be for this family. */
    static final double MAX_WINDOW_SECONDS = 30;

    private final WhisperModel model;
    private final SileroVad vad;
    private final String description;

    private WhisperRecognizer(WhisperModel model, SileroVad vad, String description) {
        this.model = model;
        this.vad = vad;
        this.description = description;
    }

    /** Loads a whisper.cpp file or a transformers folder, and the VAD, onto {@code engine}. */
    public static WhisperRecognizer load(AudioEngine engine, Path model, Path vadFile, String what) throws IOException {
        return of(engine, WhisperModel.load(engine, model), vadFile, what);
    }

    /** Wraps a loaded model with the VAD loaded from {@code vadFile}; closes the model if the VAD fails to load. */
    static WhisperRecognizer of(AudioEngine engine, WhisperModel m, Path vadFile, String what) throws IOException {
        try {
            return new WhisperRecognizer(m, SileroVad.load(engine, vadFile), what);
        } catch (IOException | RuntimeException e) {
            m.close();
            throw e;
        }
    }

    public WhisperModel model() {
        return model;
    }

    @Override
    public Task task() {
        return Task.ASR;
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public java.util.Optional<dev.audioengine.api.exec.RunSummary> runSummary() {
        return model.runSummary();
    }

    @Override
    public int sampleRate() {
        return WhisperNetwork.SAMPLE_RATE;
    }

    @Override
    public TranscriptSegment transcribeWindow(float[] samples, long startSample, AsrOptions options) {
        return decodeWindow(samples, 0, samples.length, startSample, check(options));
    }

    private TranscriptSegment decodeWindow(
            float[] samples, int from, int length, long startSample, AsrOptions options) {
        return decodeWindow(samples, from, length, startSample, options, null);
    }

    /** One window; its timestamped segments, on the recording's time line, go to {@code timed} when given. */
    private TranscriptSegment decodeWindow(
            float[] samples,
            int from,
            int length,
            long startSample,
            AsrOptions options,
            java.util.Map<Long, List<TranscriptSegment>> timed) {
        if (length > WhisperNetwork.WINDOW_SAMPLES)
            throw new IllegalArgumentException("a window of " + length / (double) sampleRate()
                    + " s is longer than Whisper's 30 s; transcribe() windows long audio");
        if (options.wordTimestamps()) return decodeWindowWords(samples, from, length, startSample, options, timed);
        WhisperModel.Decoded d = model.decode(samples, from, length, decoding(options));
        DecodingStats stats = stats(d);
        if (timed != null) {
            List<TranscriptSegment> inside = new ArrayList<>();
            long end = startSample + length;
            for (WhisperModel.Segment s : d.segments()) {
                long a = Math.min(end, startSample + Math.round(s.start() * sampleRate()));
                long b = Math.max(a, Math.min(end, startSample + Math.round(s.end() * sampleRate())));
                inside.add(new TranscriptSegment(
                        a, b, sampleRate(), s.text(), s.tokens(), List.of(), d.language(), stats));
            }
            timed.put(startSample, inside);
        }
        return new TranscriptSegment(
                startSample, startSample + length, sampleRate(), d.text(), d.tokens(), List.of(), d.language(), stats);
    }

    /**
     * As {@link #decodeWindow} with word timestamps ({@link WhisperModel#decodeTimed}): each segment carries the
     * words whose tokens it holds, timed on the recording's time line (clamped to the window).
     */
    private TranscriptSegment decodeWindowWords(
            float[] samples,
            int from,
            int length,
            long startSample,
            AsrOptions options,
            java.util.Map<Long, List<TranscriptSegment>> timed) {
        WhisperModel.Timed t =
                model.decodeTimed(samples, from, length, decoding(options), alignmentHeads(options.alignmentHeads()));
        WhisperModel.Decoded d = t.decoded();
        DecodingStats stats = stats(d);
        double offset = startSample / (double) sampleRate(), windowEnd = offset + length / (double) sampleRate();
        List<dev.audioengine.model.task.TranscriptWord> all = new ArrayList<>();
        List<Integer> firstTokens = new ArrayList<>();
        for (WhisperAlignment.Word w : t.words()) {
            double a = Math.min(windowEnd, offset + w.start()), b = Math.max(a, Math.min(windowEnd, offset + w.end()));
            all.add(new dev.audioengine.model.task.TranscriptWord(w.text(), a, b, w.probability()));
            firstTokens.add(w.firstToken());
        }
        if (timed != null) {
            List<TranscriptSegment> inside = new ArrayList<>();
            long end = startSample + length;
            int textSoFar = 0;
            for (WhisperModel.Segment s : d.segments()) {
                long a = Math.min(end, startSample + Math.round(s.start() * sampleRate()));
                long b = Math.max(a, Math.min(end, startSample + Math.round(s.end() * sampleRate())));
                // a segment's words: those whose first token is among its text tokens
                List<dev.audioengine.model.task.TranscriptWord> words = new ArrayList<>();
                for (int i = 0; i < all.size(); i++)
                    if (firstTokens.get(i) >= textSoFar
                            && firstTokens.get(i) < textSoFar + s.tokens().size()) words.add(all.get(i));
                textSoFar += s.tokens().size();
                inside.add(new TranscriptSegment(a, b, sampleRate(), s.text(), s.tokens(), words, d.language(), stats));
            }
            timed.put(startSample, inside);
        }
        return new TranscriptSegment(
                startSample, startSample + length, sampleRate(), d.text(), d.tokens(), all, d.language(), stats);
    }

    /**
     * A VAD window's statistics: decoded once at temperature 0 (greedy or beam search; the VAD's windows have no
     * fallback), its mean log-probability, its text's compression ratio and its no-speech probability.
     */
    private static DecodingStats stats(WhisperModel.Decoded d) {
        return new DecodingStats(
                0, d.averageLogProbability(), WhisperLongForm.compressionRatio(d.text()), d.noSpeechProbability());
    }

    /** The alignment heads a request names (null or "auto": the preset of this model's shape). */
    WhisperAlignment.Heads alignmentHeads(String spec) {
        return WhisperAlignment.parse(spec, model.config());
    }

    /**
     * A window's segment replaced by the segments its timestamps delimit (the window itself when it took none), so
     * that offline transcripts carry Whisper's own segment times.
     */
    private static List<TranscriptSegment> timedSegments(
            TranscriptSegment window, java.util.Map<Long, List<TranscriptSegment>> timed) {
        List<TranscriptSegment> inside = timed.remove(window.startSample());
        return inside == null || inside.isEmpty() ? List.of(window) : inside;
    }

    private static Transcript timed(Transcript t, java.util.Map<Long, List<TranscriptSegment>> timed) {
        List<TranscriptSegment> out = new ArrayList<>();
        for (TranscriptSegment w : t.segments()) out.addAll(timedSegments(w, timed));
        return new Transcript(out, t.audioSeconds(), t.decodedTokens());
    }

    /** The window decoding under the request's options: its language ("auto" or none: detected), its task. */
    WhisperModel.Options decoding(AsrOptions options) {
        String language = options.language() == null || options.language().equals("auto") ? null : options.language();
        if (language != null) model.tokenizer().languageToken(language); // refuses an unknown code now
        if (!model.tokenizer().multilingual() && (options.translate() || (language != null && !language.equals("en"))))
            throw new IllegalArgumentException("this Whisper model is English-only: it cannot "
                    + (options.translate() ? "translate" : "hear language " + language));
        return new WhisperModel.Options(
                language,
                options.translate(),
                true,
                model.config().textCtx() / 2 - 4,
                options.beamSize(),
                options.prompt());
    }

    @Override
    public void requireSupported(AsrOptions options) {
        decoding(options);
        if (options.wordTimestamps()) {
            alignmentHeads(options.alignmentHeads());
            if (options.longForm().segmenter() == LongFormOptions.Segmenter.WHISPER)
                throw new IllegalArgumentException("word timestamps are timed on the VAD's windows: Whisper's own"
                        + " sequential windows do not align words yet (leave the segmenter to the model, or ask for the"
                        + " vad segmenter)");
        }
    }

    /** The options with windows no longer than Whisper's 30 s; the language and task checked. */
    private AsrOptions check(AsrOptions options) {
        requireSupported(options);
        return options.maxWindowSeconds() > MAX_WINDOW_SECONDS
                ? options.withMaxWindowSeconds(MAX_WINDOW_SECONDS)
                : options;
    }

    /**
     * Offline: Whisper's sequential windows ({@link #transcribeSequentially}) unless the options ask for the VAD's
     * windows, each then replaced by the segments its timestamp tokens delimit.
     */
    @Override
    public Transcript transcribe(float[] samples, AsrOptions options) {
        AsrOptions o = check(options);
        if (sequential(o)) return transcribeSequentially(samples, o);
        var timed = new java.util.concurrent.ConcurrentHashMap<Long, List<TranscriptSegment>>();
        return timed(
                LongFormTranscriber.transcribe(vad, timedWindows(o, timed), o, samples, windowsInFlight(o)), timed);
    }

    @Override
    public Transcript transcribe(AudioStream in, AsrOptions options, Consumer<TranscriptSegment> onSegment)
            throws IOException {
        AsrOptions o = check(options);
        if (in.sampleRate() != sampleRate()) in.resampleTo(sampleRate());
        if (sequential(o)) {
            // Whisper's windows need the audio after each one (its seek moves by what the window decoded)
            Transcript t = transcribeSequentially(in.readAll().samples(), o);
            t.segments().forEach(onSegment);
            return t;
        }
        var timed = new java.util.concurrent.ConcurrentHashMap<Long, List<TranscriptSegment>>();
        var handed = new java.util.concurrent.ConcurrentHashMap<Long, List<TranscriptSegment>>();
        Transcript t = LongFormTranscriber.transcribe(
                vad,
                timedWindows(o, timed),
                o,
                in,
                window -> {
                    List<TranscriptSegment> inside = timedSegments(window, timed);
                    handed.put(window.startSample(), inside);
                    inside.forEach(onSegment);
                },
                windowsInFlight(o));
        return timed(t, handed);
    }

    private WindowDecoder timedWindows(AsrOptions options, java.util.Map<Long, List<TranscriptSegment>> timed) {
        return (samples, from, length, startSample) -> decodeWindow(samples, from, length, startSample, options, timed);
    }

    @Override
    public AsrStream stream(AsrOptions options) {
        AsrOptions o = check(options);
        if (o.longForm().segmenter() == LongFormOptions.Segmenter.WHISPER)
            throw new IllegalArgumentException("a live stream is cut into windows by the VAD: Whisper's own segmenter"
                    + " seeks through a whole recording (transcribe it offline, or leave the segmenter to the model)");
        return LiveTranscription.open(vad, windows(o), o);
    }

    /**
     * Whether offline audio goes through Whisper's own windows: asked for, or left to the model (its default) unless
     * words are to be timed, which the VAD's windows do ({@link #decodeWindowWords}; the sequential windows do not
     * align words yet, and {@link #requireSupported} refuses the two together).
     */
    static boolean sequential(AsrOptions o) {
        LongFormOptions.Segmenter s = o.longForm().segmenter();
        return s == LongFormOptions.Segmenter.WHISPER || (s == null && !o.wordTimestamps());
    }

    /**
     * Whisper's own long-form decoding (whisper.cpp's {@code whisper_full}): sequential 30 s windows moved on by
     * their timestamps, temperature fallback, the no-speech guard, conditioning on earlier text; the windows'
     * timestamped segments on the recording's time line (a window taken for silence gives none).
     */
    Transcript transcribeSequentially(float[] samples, AsrOptions options) {
        WhisperLongForm.Result r = model.transcribeSequentially(samples, decoding(options), options.longForm());
        List<TranscriptSegment> out = new ArrayList<>();
        long tokens = 0;
        for (WhisperLongForm.Window w : r.windows()) {
            tokens += w.tokens().size();
            // the window's kept pass: its temperature after any fallback, its statistics over the window's whole text
            String text = model.tokenizer()
                    .decode(w.tokens().stream()
                            .filter(id -> id < model.tokenizer().eot())
                            .toList());
            DecodingStats stats = new DecodingStats(
                    w.temperature(),
                    w.averageLogProbability(),
                    WhisperLongForm.compressionRatio(text),
                    w.noSpeechProbability());
            for (WhisperModel.Segment s : w.segments()) {
                long a = Math.min(samples.length, Math.round(s.start() * sampleRate()));
                long b = Math.max(a, Math.min(samples.length, Math.round(s.end() * sampleRate())));
                out.add(new TranscriptSegment(
                        a, b, sampleRate(), s.text(), s.tokens(), List.of(), r.language(), stats));
            }
        }
        return new Transcript(out, samples.length / (double) sampleRate(), tokens);
    }

    private WindowDecoder windows(AsrOptions options) {
        return (samples, from, length, startSample) -> decodeWindow(samples, from, length, startSample, options);
    }

    /**
     * The VAD's windows of one recording decoded at once: with batching, up to 8 (each is decoded on its own, so they
     * share the batch's steps as concurrent recordings do); one at a time otherwise, and with word timestamps (their
     * alignment pass runs on the model's own session).
     */
    private int windowsInFlight(AsrOptions o) {
        return o.wordTimestamps() ? 1 : Math.min(8, model.batching().maxBatch());
    }

    /**
     * Batching ({@link WhisperModel#batching}): concurrent recordings, and a recording's VAD windows, decode through
     * one batch, their decoder steps run together; each recording's own windows still follow one another.
     */
    @Override
    public void batching(dev.audioengine.model.task.Batching batching) {
        model.batching(batching);
    }

    @Override
    public dev.audioengine.model.task.Batching batching() {
        return model.batching();
    }

    @Override
    public dev.audioengine.model.task.BatchStats batchStats() {
        return model.batchStats();
    }

    @Override
    public void close() {
        vad.close();
        model.close();
    }
}
