package dev.audioengine.models.moonshine;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.RunSummary;
import dev.audioengine.audio.AudioStream;
import dev.audioengine.model.Task;
import dev.audioengine.model.task.AsrOptions;
import dev.audioengine.model.task.AsrStream;
import dev.audioengine.model.task.BatchStats;
import dev.audioengine.model.task.Batching;
import dev.audioengine.model.task.SpeechRecognizer;
import dev.audioengine.model.task.Transcript;
import dev.audioengine.model.task.TranscriptSegment;
import dev.audioengine.models.asr.LiveTranscription;
import dev.audioengine.models.asr.LongFormTranscriber;
import dev.audioengine.models.asr.WindowDecoder;
import dev.audioengine.models.moonshine.MoonshineNetwork.MoonshineConfig;
import dev.audioengine.models.silero.SileroVad;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Moonshine as a {@link SpeechRecognizer}: windows of speech decoded greedily with Moonshine's length rule (at most
 * {@link AsrOptions#tokensPerSecond()} tokens per second of window, moonshine-js's 6 by default) and a guard against
 * repetition loops; long and live audio segmented by the Silero VAD it owns. Thread-safe: each call borrows a decoding
 * session of its own.
 */
public final class MoonshineRecognizer implements SpeechRecognizer {
    private final MoonshineModel model;
    private final SileroVad vad;
    private final AudioEngine vadEngine; // the VAD's own engine on a GPU (closed with this recognizer), else null
    private final String description;

    private MoonshineRecognizer(MoonshineModel model, SileroVad vad, AudioEngine vadEngine, String description) {
        this.model = model;
        this.vad = vad;
        this.vadEngine = vadEngine;
        this.description = description;
    }

    /** Loads the network and the VAD onto {@code engine}; {@code tokenizer} is the pinned vocabulary (ignored when the checkpoint has its own). */
    public static MoonshineRecognizer load(
            AudioEngine engine, MoonshineCheckpoint checkpoint, Path tokenizer, Path vadFile, String what)
            throws IOException {
        MoonshineModel model = MoonshineModel.load(engine, checkpoint, tokenizer);
        AudioEngine vadEngine = null;
        try {
            // The VAD on an engine of its own where the device runs one beside another (a GPU's streams): each
            // request's VAD then runs beside a batch's encoder and decoder steps instead of waiting for their turn
            // (under 64 clients the batch's driver waited 0.7 s of 2.5 for it: docs/PERFORMANCE.md)
            vadEngine = engine.sideEngine().orElse(null);
            SileroVad vad = SileroVad.load(vadEngine != null ? vadEngine : engine, vadFile);
            return new MoonshineRecognizer(model, vad, vadEngine, what);
        } catch (IOException | RuntimeException e) {
            if (vadEngine != null) vadEngine.close();
            model.close();
            throw e;
        }
    }

    public MoonshineModel model() {
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
    public Optional<RunSummary> runSummary() {
        return model.runSummary();
    }

    @Override
    public int sampleRate() {
        return MoonshineConfig.SAMPLE_RATE;
    }

    @Override
    public TranscriptSegment transcribeWindow(float[] samples, long startSample, AsrOptions options) {
        return decodeWindow(samples, 0, samples.length, startSample, options);
    }

    /** One window of {@code samples[from, from + length)}, which starts at {@code startSample} of the recording. */
    TranscriptSegment decodeWindow(float[] samples, int from, int length, long startSample, AsrOptions options) {
        englishOnly(options);
        int maxSamples = (int) Math.round(options.maxWindowSeconds() * sampleRate());
        if (length > maxSamples) {
            throw new IllegalArgumentException("a window of " + length / (double) sampleRate()
                    + " s is longer than max-window-s " + options.maxWindowSeconds());
        }
        int maxTokens = Math.max(1, (int) (length / (double) sampleRate() * options.tokensPerSecond()));
        int maxWindowTokens = Math.max(1, (int) (options.maxWindowSeconds() * options.tokensPerSecond()));
        MoonshineModel.Decoded d = model.decode(samples, from, length, maxTokens, maxSamples, maxWindowTokens);
        return new TranscriptSegment(startSample, startSample + length, sampleRate(), d.text(), d.tokens());
    }

    @Override
    public void requireSupported(AsrOptions options) {
        englishOnly(options);
    }

    /**
     * Refuses what Moonshine does not do, rather than ignoring it: a language other than English and translation (its
     * models hear English and write it), a prompt, word timestamps, beam search and Whisper's long-form settings.
     */
    static void englishOnly(AsrOptions options) {
        if (options.prompt() != null)
            throw new IllegalArgumentException("Moonshine takes no prompt (the whisper family does)");
        if (options.wordTimestamps())
            throw new IllegalArgumentException("Moonshine has no word timestamps (the whisper family has)");
        if (options.beamSize() > 1)
            throw new IllegalArgumentException(
                    "Moonshine decodes greedily; it has no beam search (beam size " + options.beamSize() + ")");
        // Whisper's long-form settings (its own windows, sampling, fallback thresholds) mean nothing here: refused
        // rather than ignored, so that a user asking for them learns it; the VAD's windows are Moonshine's own
        dev.audioengine.model.task.LongFormOptions lf = options.longForm();
        if (lf.segmenter() == dev.audioengine.model.task.LongFormOptions.Segmenter.WHISPER
                || !lf.withSegmenter(null).equals(dev.audioengine.model.task.LongFormOptions.DEFAULTS))
            throw new IllegalArgumentException("Moonshine decodes each VAD window once, greedily: Whisper's long-form"
                    + " settings (its own segmenter, temperature, fallback thresholds, conditioning) are the whisper"
                    + " family's");
        if (options.translate()
                || (options.language() != null
                        && !options.language().equals("en")
                        && !options.language().equals("auto")))
            throw new IllegalArgumentException("Moonshine transcribes English only; it cannot "
                    + (options.translate() ? "translate" : "hear language " + options.language())
                    + " (the whisper family can)");
    }

    @Override
    public Transcript transcribe(float[] samples, AsrOptions options) {
        englishOnly(options);
        return LongFormTranscriber.transcribe(vad, windows(options), options, samples, windowsInFlight());
    }

    @Override
    public Transcript transcribe(AudioStream in, AsrOptions options, Consumer<TranscriptSegment> onSegment)
            throws IOException {
        englishOnly(options);
        if (in.sampleRate() != sampleRate()) in.resampleTo(sampleRate());
        return LongFormTranscriber.transcribe(vad, windows(options), options, in, onSegment, windowsInFlight());
    }

    /**
     * Windows of one recording decoded at once: with batching, up to 8 (they share the batch's steps, so a long
     * recording alone fills 8 slots; concurrent recordings fill the rest, without a server's 64 requests making 64
     * threads each); one at a time otherwise.
     */
    private int windowsInFlight() {
        return Math.min(8, model.batching().maxBatch());
    }

    @Override
    public AsrStream stream(AsrOptions options) {
        englishOnly(options);
        return LiveTranscription.open(vad, windows(options), options);
    }

    /** This recognizer's window decoding under {@code options}, for the long-form and live drivers. */
    private WindowDecoder windows(AsrOptions options) {
        return (samples, from, length, startSample) -> decodeWindow(samples, from, length, startSample, options);
    }

    @Override
    public void batching(Batching batching) {
        model.batching(batching);
    }

    @Override
    public Batching batching() {
        return model.batching();
    }

    @Override
    public BatchStats batchStats() {
        return model.batchStats();
    }

    @Override
    public void close() {
        vad.close();
        if (vadEngine != null) vadEngine.close();
        model.close();
    }
}
