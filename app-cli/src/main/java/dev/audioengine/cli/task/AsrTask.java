package dev.audioengine.cli.task;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.spi.DeviceKind;
import dev.audioengine.audio.AudioStream;
import dev.audioengine.cli.UsageError;
import dev.audioengine.model.output.JsonWriter;
import dev.audioengine.model.output.Segment;
import dev.audioengine.model.output.SegmentFormat;
import dev.audioengine.model.output.SegmentWriter;
import dev.audioengine.model.task.AsrOptions;
import dev.audioengine.model.task.AsrStream;
import dev.audioengine.model.task.Batching;
import dev.audioengine.model.task.LongFormOptions;
import dev.audioengine.model.task.LongFormOptions.Segmenter;
import dev.audioengine.model.task.SpeechRecognizer;
import dev.audioengine.model.task.Transcript;
import dev.audioengine.model.task.TranscriptEvent;
import dev.audioengine.model.task.TranscriptSegment;
import dev.audioengine.model.task.TranscriptWord;
import dev.audioengine.model.task.VadOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine.Option;

/** {@code --task asr}: the transcript of each input, offline or through the live streaming API. */
final class AsrTask {
    /** Streaming mode feeds the file in pieces of this many milliseconds, as a live source would. */
    private static final int STREAM_PIECE_MS = 20;

    @Option(
            names = "--max-window-s",
            paramLabel = "S",
            description = "Speech is decoded in windows at most this long (1 to 60): "
                    + "the voice activity detector's segments are joined up to it, across pauses shorter than "
                    + "--merge-gap-s; a window that would grow longer is cut at its longest pause, and one segment "
                    + "longer than it is split. Default: 10.")
    Double maxWindowS;

    @Option(
            names = "--merge-gap-s",
            paramLabel = "S",
            description =
                    "Speech segments apart by a pause shorter than this share a window (0: never). " + "Default: 2.")
    Double mergeGapS;

    /** --vad-threshold, shared with --task kws: set by TaskOptions before the checks. */
    VadThresholdOption vadThreshold = new VadThresholdOption();

    @Option(
            names = "--max-batch",
            paramLabel = "N",
            description = "With several inputs, transcribe up to N of them at once, their windows decoded together in "
                    + "batched steps (1 to 1024; 1: one file after another). Transcripts are the same either way. "
                    + "Default: 64 on a GPU backend; 1 on the CPU, where batching does not pay (docs/PERFORMANCE.md).")
    Integer maxBatch;

    @Option(
            names = "--language",
            paramLabel = "CODE",
            description = "The language spoken, as a code (en, de, fr, ...), or auto to detect it in each window "
                    + "(multilingual Whisper). Default: the model's own (Whisper detects; Moonshine hears English).")
    String language;

    // Whisper's own task (transcribe or translate) is a flag rather than a value: --task already picks the engine's
    // task (asr, vad, tts, kws), and whisper.cpp spells it -tr/--translate too.
    @Option(
            names = "--translate",
            description = "Translate the speech into English text instead of transcribing it (Whisper's translate "
                    + "task; multilingual Whisper models only).")
    boolean translate;

    @Option(
            names = "--beam-size",
            paramLabel = "N",
            description = "Beam search with N beams, as whisper.cpp's -bs N (Whisper only; 1 to 8). Default: 1, "
                    + "greedy (whisper-cli's default is 5: slower, see docs/WHISPER.md).")
    Integer beamSize;

    @Option(
            names = "--prompt",
            paramLabel = "TEXT",
            description = "Text the speech continues, given to every window before it is decoded (Whisper's initial "
                    + "prompt, as whisper.cpp's --prompt: names, spellings, style). Whisper only.")
    String prompt;

    @Option(
            names = "--word-timestamps",
            description = "Time each word (Whisper only: cross-attention of the model's alignment heads aligned by "
                    + "DTW, as whisper.cpp's -dtw and openai-whisper's word_timestamps): words in --json, and one cue "
                    + "per word in --segments-out files (srt, vtt, ...).")
    boolean wordTimestamps;

    @Option(
            names = "--dtw-heads",
            paramLabel = "HEADS",
            description = "The alignment heads for --word-timestamps (implies it): a preset (tiny, tiny.en, base, "
                    + "base.en, small, small.en, medium, medium.en, large-v1, large-v2, large-v3, large-v3-turbo) or "
                    + "pairs LAYER:HEAD,LAYER:HEAD counted from 0. Default: the preset of the model's shape.")
    String dtwHeads;

    // Whisper's long-form decoding (whisper.cpp's whisper_full options, its defaults): LongFormOptions says each
    @Option(
            names = "--segmenter",
            paramLabel = "whisper|vad",
            description = "How long audio is cut into windows (Whisper only): whisper, Whisper's own sequential 30 s "
                    + "windows, each starting where the previous one's timestamps end (whisper.cpp's and "
                    + "openai-whisper's way); vad, the voice activity detector's speech windows (skips silence, batches "
                    + "several inputs). Default: whisper offline; live streams (--mode streaming) always use vad.")
    String segmenter;

    @Option(
            names = "--temperature",
            paramLabel = "T",
            description = "The first decoding's temperature (0 to 1; 0: greedy or beam search, above: sampling). "
                    + "Whisper only. Default: 0.")
    Double temperature;

    @Option(
            names = "--temperature-increment",
            paramLabel = "T",
            description = "A window whose decoding fails (repetition loop, no result) or is doubtful (mean "
                    + "log-probability under --logprob-threshold) is decoded again this much hotter, up to 1, "
                    + "sampling --best-of candidates (Whisper's temperature fallback; 0: none). Default: 0.2.")
    Double temperatureIncrement;

    @Option(
            names = "--no-fallback",
            description =
                    "Decode each window once, at --temperature (as --temperature-increment 0; whisper.cpp's -nf).")
    boolean noFallback;

    @Option(
            names = "--best-of",
            paramLabel = "N",
            description = "Sampled decodings per window at a temperature above 0, the likeliest kept (1 to 8). "
                    + "Whisper only. Default: 5.")
    Integer bestOf;

    @Option(
            names = "--logprob-threshold",
            paramLabel = "X",
            description = "A window's decoding with mean token log-probability below X is decoded again, or, when its "
                    + "no-speech probability is above --no-speech-threshold, dropped as silence. Default: -1.")
    Double logprobThreshold;

    @Option(
            names = "--no-speech-threshold",
            paramLabel = "P",
            description = "A window whose no-speech probability is above P (0 to 1) and whose mean log-probability is "
                    + "below --logprob-threshold gives no text (Whisper's guard against text made up in silence). "
                    + "Default: 0.6.")
    Double noSpeechThreshold;

    @Option(
            names = "--entropy-threshold",
            paramLabel = "X",
            description = "A decoding of more than 32 tokens whose last 32 tokens' entropy (nats) is below X is a "
                    + "repetition loop and fails (whisper.cpp's -et). Default: 2.4.")
    Double entropyThreshold;

    @Option(
            names = "--compression-ratio-threshold",
            paramLabel = "X",
            description = "Also decode again a window whose text's zlib compression ratio is above X "
                    + "(openai-whisper's test, 2.4 there; whisper.cpp has none). Default: off.")
    Double compressionRatioThreshold;

    @Option(
            names = "--no-condition",
            description = "Do not prompt each window with the text of the windows before it (Whisper conditions by "
                    + "default; --prompt then reaches the first window only).")
    boolean noCondition;

    /** The batch size on a GPU when --max-batch is not given: a step over 64 sequences costs little more than one. */
    static final int DEFAULT_GPU_BATCH = 64;

    private AudioTaskOptions shared;
    private AsrOptions options;
    private boolean streaming;
    private SegmentFormat segmentsFormat;

    /** Everything that can be wrong with the request itself, checked before a model is pulled or loaded. */
    void checkBeforeLoading(AudioTaskOptions shared, List<Path> inputs) throws IOException {
        this.shared = shared;
        streaming = shared.streaming();
        options = options();
        if (maxBatch != null)
            checked("--max-batch", () -> {
                new Batching(maxBatch, 0);
                return options;
            });
        segmentsFormat = shared.segmentsFormat(inputs.size());
        if (segmentsFormat != null) {
            OutputPaths.refuseOverwriting(
                    inputs,
                    OutputPaths.outputs(
                            "--segments-out", shared.segmentsOut, inputs, ".segments." + segmentsFormat.extension()));
        }
    }

    /** The defaults with the options given; AsrOptions and VadOptions say what is out of range. */
    private AsrOptions options() {
        AsrOptions o = AsrOptions.DEFAULTS;
        if (maxWindowS != null) {
            AsrOptions before = o;
            o = checked("--max-window-s", () -> before.withMaxWindowSeconds(maxWindowS));
        }
        if (mergeGapS != null) {
            AsrOptions before = o;
            o = checked("--merge-gap-s", () -> before.withMergeGapSeconds(mergeGapS));
        }
        if (vadThreshold.value != null) {
            VadOptions v = o.vad();
            AsrOptions before = o;
            o = checked(
                    "--vad-threshold",
                    () -> before.withVad(new VadOptions(
                            vadThreshold.value,
                            v.negThreshold(),
                            v.minSpeechMs(),
                            v.minSilenceMs(),
                            v.speechPadMs(),
                            v.maxSpeechS())));
        }
        if (language != null) {
            AsrOptions before = o;
            o = checked("--language", () -> before.withLanguage(language.toLowerCase(Locale.ROOT)));
        }
        if (translate) o = o.withTranslate(true);
        if (prompt != null) o = o.withPrompt(prompt);
        if (beamSize != null) {
            AsrOptions before = o;
            o = checked("--beam-size", () -> before.withBeamSize(beamSize));
        }
        if (wordTimestamps || dtwHeads != null) o = o.withWordTimestamps(true, dtwHeads);
        return o.withLongForm(longForm(o.longForm()));
    }

    /** Whisper's long-form options from the defaults and the options given; LongFormOptions checks the ranges. */
    private LongFormOptions longForm(LongFormOptions l) {
        if (segmenter != null) l = checkedLongForm("--segmenter", l, x -> x.withSegmenter(Segmenter.of(segmenter)));
        if (temperature != null || temperatureIncrement != null || noFallback) {
            double first = temperature != null ? temperature : l.temperature();
            double inc =
                    noFallback ? 0 : temperatureIncrement != null ? temperatureIncrement : l.temperatureIncrement();
            l = checkedLongForm(
                    temperature != null ? "--temperature" : "--temperature-increment",
                    l,
                    x -> x.withTemperatures(first, inc));
        }
        if (bestOf != null) l = checkedLongForm("--best-of", l, x -> x.withBestOf(bestOf));
        if (logprobThreshold != null
                || noSpeechThreshold != null
                || entropyThreshold != null
                || compressionRatioThreshold != null) {
            double lp = logprobThreshold != null ? logprobThreshold : l.logprobThreshold();
            double ns = noSpeechThreshold != null ? noSpeechThreshold : l.noSpeechThreshold();
            double en = entropyThreshold != null ? entropyThreshold : l.entropyThreshold();
            double cr = compressionRatioThreshold != null ? compressionRatioThreshold : l.compressionRatioThreshold();
            l = checkedLongForm("a threshold", l, x -> x.withThresholds(lp, ns, en, cr));
        }
        if (noCondition) l = l.withConditionOnPrevious(false);
        return l;
    }

    private static LongFormOptions checkedLongForm(
            String option, LongFormOptions l, java.util.function.UnaryOperator<LongFormOptions> change) {
        try {
            return change.apply(l);
        } catch (IllegalArgumentException e) {
            throw new UsageError(option + ": " + e.getMessage(), e);
        }
    }

    private static AsrOptions checked(String option, java.util.function.Supplier<AsrOptions> make) {
        try {
            return make.get();
        } catch (IllegalArgumentException e) {
            throw new UsageError(option + ": " + e.getMessage(), e);
        }
    }

    void run(TaskRun run, AudioEngine engine, SpeechRecognizer asr, List<Path> inputs) throws IOException {
        JsonWriter doc = run.json && !streaming && inputs.size() > 1 ? new JsonWriter().beginArray() : null;
        List<CompletableFuture<Transcript>> batched = batched(run, engine, asr, inputs);
        long batchStart = System.nanoTime();
        for (int k = 0; k < inputs.size(); k++) {
            Path input = inputs.get(k);
            // several inputs: each line says which file it is about (JSON carries "audio" instead)
            String prefix = inputs.size() > 1 && !run.json ? input + ": " : "";
            long t0 = batched != null ? batchStart : System.nanoTime();
            Transcript transcript;
            try {
                transcript = streaming
                        ? stream(input, inputs.size() > 1, asr, run, prefix)
                        : batched != null ? await(batched.get(k)) : transcribe(input, asr, run);
            } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
                // one file that cannot be decoded does not cost the others: reported, skipped, exit 1 at the end
                if (inputs.size() == 1) throw e;
                String message = run.inputFailed(input, e);
                if (run.json && streaming) {
                    run.out.println(new JsonWriter()
                            .beginObject()
                            .name("audio")
                            .value(input.toString())
                            .name("type")
                            .value("error")
                            .name("error")
                            .value(message)
                            .endObject());
                } else if (doc != null) {
                    run.failedInputJson(doc, input, message);
                }
                run.out.flush();
                continue;
            }
            double wall = (System.nanoTime() - t0) / 1e9;
            if (!streaming) {
                if (run.json) {
                    JsonWriter w = doc != null ? doc : new JsonWriter();
                    resultJson(w, input, transcript, asr, engine, wall);
                    if (doc == null) run.out.println(w);
                } else {
                    run.out.println(prefix + transcript.text()); // one line per input, empty when no speech was heard
                }
            }
            run.out.flush();
            summarize(run, input, transcript, asr, engine, wall);
            if (segmentsFormat != null) writeSegments(input, inputs.size(), transcript, asr);
        }
        if (doc != null) run.out.println(doc.endArray());
        run.out.flush();
        run.runSummary(asr);
        run.failIfInputsFailed(inputs.size());
    }

    /**
     * Several inputs offline with a batch size above 1: every input started at once through
     * {@link SpeechRecognizer#transcribeEach} (up to the batch size at a time, windows sharing decoder steps); null
     * when they run one after another. Results are printed in input order as they come.
     */
    private List<CompletableFuture<Transcript>> batched(
            TaskRun run, AudioEngine engine, SpeechRecognizer asr, List<Path> inputs) {
        if (streaming || inputs.size() < 2) return null;
        int n = maxBatch != null ? maxBatch : engine.device().kind() == DeviceKind.CPU ? 1 : DEFAULT_GPU_BATCH;
        if (n < 2) return null;
        asr.batching(new Batching(n, 0));
        if (asr.batching().maxBatch() < 2) return null; // a family that decodes one window at a time
        run.note("transcribing up to " + n + " inputs at once, windows decoded in batched steps (--max-batch)");
        return asr.transcribeEach(
                inputs.stream()
                        .<SpeechRecognizer.AudioSource>map(input -> () -> open(input, asr, run))
                        .toList(),
                options);
    }

    /** A batched input's transcript, or the failure it would have thrown alone. */
    private static Transcript await(CompletableFuture<Transcript> f) throws IOException {
        try {
            return f.join();
        } catch (java.util.concurrent.CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UncheckedIOException u) throw u.getCause();
            if (cause instanceof RuntimeException r) throw r;
            if (cause instanceof Error err) throw err;
            throw e;
        }
    }

    private Transcript transcribe(Path input, SpeechRecognizer asr, TaskRun run) throws IOException {
        try (AudioStream in = open(input, asr, run)) {
            return asr.transcribe(in, options);
        }
    }

    /** Streaming: partial text rewrites a terminal line (or is a JSON line), final text is printed per segment as it settles. */
    private Transcript stream(Path input, boolean several, SpeechRecognizer asr, TaskRun run, String prefix)
            throws IOException {
        List<TranscriptSegment> finals = new ArrayList<>();
        try (AudioStream in = open(input, asr, run);
                AsrStream s = asr.stream(options)) {
            int rate = in.sampleRate();
            float[] piece = new float[rate * STREAM_PIECE_MS / 1000];
            for (int n; (n = in.read(piece, 0, piece.length)) >= 0; ) {
                if (n > 0) show(s.accept(piece, 0, n), several ? input : null, prefix, run, finals);
            }
            show(s.finish(), several ? input : null, prefix, run, finals);
            run.endProgress();
            long tokens = finals.stream().mapToLong(f -> f.tokens().size()).sum();
            return new Transcript(finals, in.samplesRead() / (double) rate, tokens);
        }
    }

    private static void show(
            List<TranscriptEvent> events, Path audio, String prefix, TaskRun run, List<TranscriptSegment> finals) {
        for (TranscriptEvent e : events) {
            TranscriptSegment seg = e.segment();
            switch (e) {
                case TranscriptEvent.Partial p -> {
                    if (run.json) run.out.println(eventJson("partial", audio, seg));
                    else run.live(prefix + seg.text());
                }
                case TranscriptEvent.Final f -> {
                    finals.add(seg);
                    run.endProgress();
                    if (run.json) run.out.println(eventJson("final", audio, seg));
                    else if (!seg.text().isEmpty()) run.out.println(prefix + line(seg));
                }
            }
            run.out.flush();
        }
    }

    /** Opens the input at the rate the model hears, so that both modes resample the same way and say so. */
    private AudioStream open(Path input, SpeechRecognizer asr, TaskRun run) throws IOException {
        AudioStream in = AudioInputs.open(input, shared.audioStream(), w -> run.note("warning: " + w));
        if (in.sourceRate() != asr.sampleRate()) {
            run.note("resampling " + AudioInputs.describe(input) + " from " + in.sourceRate() + " Hz to "
                    + asr.sampleRate() + " Hz");
            in = in.resampleTo(asr.sampleRate());
        }
        return in;
    }

    private static double millis(double seconds) {
        return Math.round(seconds * 1000) / 1000.0;
    }

    private static String line(TranscriptSegment s) {
        return String.format(Locale.ROOT, "[%.3f \u2192 %.3f] %s", s.startSeconds(), s.endSeconds(), s.text());
    }

    private static String eventJson(String type, Path audio, TranscriptSegment s) {
        JsonWriter w = new JsonWriter().beginObject();
        if (audio != null) w.name("audio").value(audio.toString());
        return w.name("type")
                .value(type)
                .name("start")
                .number(millis(s.startSeconds()))
                .name("end")
                .number(millis(s.endSeconds()))
                .name("text")
                .value(s.text())
                .endObject()
                .toString();
    }

    private static void resultJson(
            JsonWriter w, Path input, Transcript t, SpeechRecognizer asr, AudioEngine engine, double wall) {
        w.beginObject()
                .name("audio")
                .value(input.toString())
                .name("text")
                .value(t.text())
                .name("segments")
                .beginArray();
        for (TranscriptSegment s : t.segments()) {
            w.beginObject()
                    .name("start")
                    .number(millis(s.startSeconds()))
                    .name("end")
                    .number(millis(s.endSeconds()))
                    .name("text")
                    .value(s.text());
            if (s.decoding() != null)
                // Whisper's: the kept pass's temperature and statistics, named as in OpenAI's verbose_json
                w.name("temperature")
                        .number(s.decoding().temperature())
                        .name("avg_logprob")
                        .numberOrNull(s.decoding().averageLogProbability())
                        .name("compression_ratio")
                        .numberOrNull(s.decoding().compressionRatio())
                        .name("no_speech_prob")
                        .numberOrNull(s.decoding().noSpeechProbability());
            if (!s.words().isEmpty()) {
                w.name("words").beginArray();
                for (TranscriptWord word : s.words())
                    w.beginObject()
                            .name("word")
                            .value(word.text())
                            .name("start")
                            .number(millis(word.start()))
                            .name("end")
                            .number(millis(word.end()))
                            .name("probability")
                            .number(word.probability())
                            .endObject();
                w.endArray();
            }
            w.endObject();
        }
        w.endArray()
                .name("model")
                .value(asr.describe())
                .name("backend")
                .value(engine.backend().registryName())
                .name("audio_seconds")
                .number(t.audioSeconds())
                .name("realtime_factor")
                .number(t.audioSeconds() / Math.max(wall, 1e-9))
                .name("tokens")
                .value(t.decodedTokens())
                .endObject();
    }

    /** One line for people on stderr, so stdout stays the transcript alone. */
    private void summarize(
            TaskRun run, Path input, Transcript t, SpeechRecognizer asr, AudioEngine engine, double wall) {
        int n = t.segments().size();
        run.note(String.format(
                Locale.ROOT,
                "%s%d segment%s, %.2f s of audio in %.0f ms wall incl. decoding (%s on %s, %.1fx real time, %d tokens%s)",
                input.equals(AudioInputs.STDIN) ? "" : input.getFileName() + ": ",
                n,
                n == 1 ? "" : "s",
                t.audioSeconds(),
                wall * 1e3,
                asr.describe(),
                engine.backend().registryName(),
                t.audioSeconds() / Math.max(wall, 1e-9),
                t.decodedTokens(),
                streaming ? " in the final text" : ""));
    }

    /**
     * The segments with their text. Formats that show the text as the caption (srt, vtt, Audacity labels) leave out
     * windows that decoded to nothing: the writers would caption them "speech", which reads as a transcript.
     */
    private void writeSegments(Path input, int inputs, Transcript t, SpeechRecognizer asr) throws IOException {
        boolean captions = segmentsFormat == SegmentFormat.SRT
                || segmentsFormat == SegmentFormat.VTT
                || segmentsFormat == SegmentFormat.AUDACITY;
        List<Segment> segments = options.wordTimestamps()
                ? words(t)
                : t.segments().stream()
                        .filter(s -> !captions || !s.text().isEmpty())
                        .map(s -> new Segment(s.startSample(), s.endSample(), s.sampleRate(), "speech", s.text()))
                        .toList();
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("sample_rate", asr.sampleRate());
        properties.put("model", asr.describe());
        properties.put("mode", streaming ? "streaming" : "offline");
        properties.put("max_window_s", options.maxWindowSeconds());
        properties.put("merge_gap_s", options.mergeGapSeconds());
        properties.put("vad_threshold", options.vad().threshold());
        properties.put("text", t.text());
        SegmentWriter.write(
                shared.segmentsFile(input, inputs, segmentsFormat),
                segmentsFormat,
                input.toString(),
                properties,
                segments);
    }

    /** With --word-timestamps: one segment (cue) per word, its text without the leading space. */
    private static List<Segment> words(Transcript t) {
        List<Segment> out = new java.util.ArrayList<>();
        for (TranscriptSegment s : t.segments())
            for (TranscriptWord w : s.words()) {
                long a = Math.round(w.start() * s.sampleRate()), b = Math.max(a, Math.round(w.end() * s.sampleRate()));
                out.add(new Segment(a, b, s.sampleRate(), "word", w.text().strip()));
            }
        return out;
    }
}
