package dev.audioengine.models.whisper;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.blocks.weights.WeightStore;
import dev.audioengine.model.ModelFormatException;
import dev.audioengine.models.json.ModelJson;
import dev.audioengine.models.whisper.WhisperNetwork.WhisperConfig;
import dev.audioengine.weights.WeightFile;
import dev.audioengine.weights.WeightFiles;
import dev.audioengine.weights.WeightFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Whisper on an engine: its weights, its vocabulary and one decoding session (calls take turns on it). Loads either
 * layout users have: a whisper.cpp file ({@code ggml-*.bin}: F32 and F16 tensors; hyperparameters, mel filterbank
 * and vocabulary inside) or a Hugging Face folder ({@code config.json}, {@code model.safetensors},
 * {@code tokenizer.json}). One window (at most 30 s) per call; longer audio goes through a windowing driver.
 */
public final class WhisperModel implements AutoCloseable {
    /** Text between two timestamps of a window, in seconds from the window's start, with its text tokens. */
    public record Segment(double start, double end, String text, List<Integer> tokens) {}

    /**
     * What one window decoded to.
     *
     * @param language      the language spoken (given, or detected; "en" for English-only models)
     * @param tokens        every token taken, timestamps included, EOT not
     * @param probabilities each token's probability after the decoding rules (whisper.cpp's {@code p})
     * @param text          the text tokens decoded
     * @param segments      the text timed by its timestamp tokens (one untimed segment without timestamps)
     * @param noSpeechProbability   the no-speech token's probability right after SOT, over all tokens, before any
     *                              rule (openai-whisper's {@code no_speech_prob}; whisper.cpp 1.8 means the same
     *                              but reads a stale row of its logits buffer, see docs/WHISPER.md)
     * @param averageLogProbability the mean log-probability of the result's tokens as whisper.cpp counts them (EOT
     *                              included without timestamps; up to the last timestamp with them), −∞ when the
     *                              window failed (whisper.cpp's {@code avg_logprobs})
     */
    public record Decoded(
            String language,
            List<Integer> tokens,
            float[] probabilities,
            String text,
            List<Segment> segments,
            double noSpeechProbability,
            double averageLogProbability) {
        /** whisper.cpp's hallucination guard at its default thresholds: the window heard no speech, drop its text. */
        public boolean noSpeech() {
            return WhisperDecoding.noSpeech(noSpeechProbability, averageLogProbability);
        }
    }

    /**
     * How to decode a window.
     *
     * @param language   a language code ("en", "de", ...), or null to detect it
     * @param translate  translate to English rather than transcribe
     * @param timestamps predict timestamp tokens (segments), else one segment per window
     * @param maxTokens  the most tokens to take (whisper.cpp's limit is textCtx / 2 − 4)
     * @param beamSize   1: greedy; N &gt; 1: whisper.cpp's beam search with N decoders ({@code WhisperBeamSearch})
     * @param prompt     text the window continues (whisper.cpp's {@code --prompt}: after the previous-text token,
     *                   before SOT, tokenized as whisper.cpp does), or null
     */
    public record Options(
            String language, boolean translate, boolean timestamps, int maxTokens, int beamSize, String prompt) {
        public static final Options DEFAULT = new Options(null, false, true, 220);

        public Options {
            if (beamSize < 1 || beamSize > MAX_BEAMS)
                throw new IllegalArgumentException("beam size " + beamSize + " is outside 1.." + MAX_BEAMS);
        }

        /** Greedy decoding. */
        public Options(String language, boolean translate, boolean timestamps, int maxTokens) {
            this(language, translate, timestamps, maxTokens, 1, null);
        }

        /** These options with {@code n} beams (1: greedy). */
        public Options withBeamSize(int n) {
            return new Options(language, translate, timestamps, maxTokens, n, prompt);
        }

        /** These options with an initial prompt (null or empty: none). */
        public Options withPrompt(String text) {
            return new Options(language, translate, timestamps, maxTokens, beamSize, text);
        }
    }

    /** whisper.cpp's WHISPER_MAX_DECODERS: the most beams. */
    public static final int MAX_BEAMS = 8;

    /**
     * The capabilities Whisper's graphs branch on: fused attention (else matmul-softmax-matmul), BF16 weights and the
     * block types of whisper.cpp's quantized files that the backend multiplies directly (else those weights load as
     * F32).
     */
    public static final Set<Capability> USES = Set.of(
            Capability.FUSED_ATTENTION,
            Capability.BF16_WEIGHTS,
            Capability.Q5_0_WEIGHTS,
            Capability.Q5_1_WEIGHTS,
            Capability.Q4_1_WEIGHTS,
            Capability.Q6_K_WEIGHTS,
            Capability.Q4_K_WEIGHTS,
            Capability.Q5_K_WEIGHTS,
            Capability.Q3_K_WEIGHTS,
            Capability.Q2_K_WEIGHTS);

    private final WeightFile file;
    private final WhisperWeights weights;
    private final WhisperTokenizer tokenizer;
    private final AudioEngine engine;
    private final WhisperSession session;
    private boolean stepAhead;
    private volatile dev.audioengine.model.task.Batching batching = dev.audioengine.model.task.Batching.NONE;
    /** The batch concurrent calls decode through once batching is on, made on first use; guarded by batchLock. */
    private WhisperBatch batch;

    private boolean closed;
    private final Object batchLock = new Object();
    /** Whether a call holds the model's own session while the batch is idle ({@link WhisperBatch#idle}). */
    private final java.util.concurrent.atomic.AtomicBoolean loneTurn = new java.util.concurrent.atomic.AtomicBoolean();
    /** The thread greedy's sums run on beside the step ahead ({@link WhisperStepAhead}); made on first use. */
    private java.util.concurrent.ExecutorService sums;

    /** The weights as loaded, for tests that check which type each is kept in. */
    WhisperWeights weights() {
        return weights;
    }

    /** The decoding session, for tests that drive {@link WhisperLongForm} themselves. */
    WhisperSession session() {
        return session;
    }

    /** Steps ahead of {@link #decode} whose token greedy took, and those fed again: for tests. */
    int aheadTaken, aheadRedone;

    private WhisperModel(
            AudioEngine engine,
            WeightFile file,
            WhisperWeights weights,
            WhisperTokenizer tokenizer,
            boolean stepAhead) {
        this.file = file;
        this.weights = weights;
        this.tokenizer = tokenizer;
        this.stepAhead = stepAhead;
        this.engine = engine;
        this.session = new WhisperSession(engine, weights);
    }

    /**
     * The system property that decides whether greedy decoding runs each decoder step ahead, on a guess of its token,
     * while the host forms the last step's sums ({@link WhisperLongForm}): {@code auto} (the default: where the device
     * is not the host, whose cores the sums would take from the step), {@code on} or {@code off}. The tokens and
     * their probabilities are the same either way; the switch is there to measure it.
     */
    public static final String STEP_AHEAD = "audioengine.whisper.step-ahead";

    /** Tests: the step ahead on or off whatever the device, as {@link #STEP_AHEAD}'s on and off. */
    synchronized WhisperModel stepAhead(boolean on) {
        stepAhead = on;
        return this;
    }

    /** Where greedy's sums run beside the step ahead, or null when it is off. */
    private java.util.concurrent.Executor sums() {
        if (!stepAhead) return null;
        if (sums == null)
            sums = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
                Thread thread = new Thread(r, "whisper-greedy-sums");
                thread.setDaemon(true);
                return thread;
            });
        return sums;
    }

    static boolean stepAhead(String setting, dev.audioengine.api.spi.DeviceKind device) {
        return switch (setting) {
            case "auto" -> device != dev.audioengine.api.spi.DeviceKind.CPU;
            case "on" -> true;
            case "off" -> false;
            default ->
                throw new IllegalArgumentException(
                        "-D" + STEP_AHEAD + "=" + setting + " is not one of auto (the default), on, off");
        };
    }

    /** Loads a whisper.cpp ggml file or a Hugging Face folder (or its model.safetensors), projections in F32. */
    public static WhisperModel load(AudioEngine engine, Path path) throws IOException {
        return load(engine, path, DType.F32);
    }

    /** As {@link #load(AudioEngine, Path)} with the projections' weight type given (F32, F16, BF16 or Q8_0). */
    public static WhisperModel load(AudioEngine engine, Path path, DType weightType) throws IOException {
        Path weightsFile = Files.isDirectory(path) ? path.resolve("model.safetensors") : path;
        if (!Files.isRegularFile(weightsFile))
            throw new ModelFormatException(path + " holds no Whisper model: expected a whisper.cpp ggml-*.bin file or"
                    + " a Hugging Face folder with config.json, model.safetensors and tokenizer.json");
        // not toAbsolutePath(): that resolves against the folder the JVM started in, and the resident process
        // (--daemon) moves to each job's folder; a relative path opens against the process's folder
        Path dir = weightsFile.getParent() != null ? weightsFile.getParent() : Path.of("");
        return load(engine, weightsFile, dir.resolve("config.json"), dir.resolve("tokenizer.json"), weightType);
    }

    /**
     * Loads a whisper.cpp ggml file ({@code config} and {@code tokenizer} unused: the file holds both) or a
     * safetensors file with the transformers config and tokenizer given apart (a named variant's cached files, which
     * the model store keeps under their own names rather than in a folder).
     */
    public static WhisperModel load(
            AudioEngine engine, Path weightsFile, Path configFile, Path tokenizerFile, DType weightType)
            throws IOException {
        // before the file: a bad setting is the user's option, not the model file's fault
        boolean stepAhead = stepAhead(
                System.getProperty(STEP_AHEAD, "auto"), engine.device().kind());
        Set<Capability> effective = engine.effectiveCapabilities(USES);
        Path path = weightsFile;
        WeightFile file = WeightFiles.open(weightsFile);
        WeightStore store = null;
        WhisperWeights weights = null;
        try {
            store = WeightStore.of(file, weightType, storedTypesKept(effective));
            WhisperTokenizer tokenizer;
            if (file.format() == WeightFormat.GGML_WHISPER) {
                WhisperConfig config = ggmlConfig(file.metadata());
                @SuppressWarnings("unchecked")
                List<byte[]> vocab = (List<byte[]>) file.metadata().get("whisper.vocab");
                tokenizer = WhisperTokenizer.fromGgml(vocab, config.vocabulary());
                HostTensor filters = store.scope().tensor("whisper.mel_filters");
                weights = WhisperWeights.read(config, WhisperWeights.Layout.OPENAI, store, filters, effective);
            } else {
                WhisperConfig config = hfConfig(configFile);
                tokenizer = WhisperTokenizer.fromTokenizerJson(tokenizerFile, config.vocabulary());
                weights = WhisperWeights.read(config, WhisperWeights.Layout.TRANSFORMERS, store, null, effective);
            }
            return new WhisperModel(engine, file, weights, tokenizer, stepAhead);
        } catch (IllegalArgumentException e) {
            if (store != null) store.close();
            file.close();
            throw new ModelFormatException(path + " is not a Whisper model the engine can read: " + e.getMessage(), e);
        } catch (IOException | RuntimeException e) {
            if (store != null) store.close();
            file.close();
            throw e;
        }
    }

    /**
     * The types a file's projection weights stay in: F16, Q8_0 and Q4_0, which every backend multiplies, BF16 where
     * BF16_WEIGHTS is effective, and each of Q5_0, Q5_1, Q4_1 and the k-quants Q6_K, Q4_K, Q5_K, Q3_K, Q2_K whose
     * weight capability is in {@code effective}. Others (a backend without the type's kernels, or the user's
     * {@code -Q6_K_WEIGHTS}) are widened or dequantized to F32 once at load.
     * <p>
     * F16 stays F16 (whisper.cpp's usual files and the larger hub checkpoints are F16): widening it is exact, so
     * keeping it changes no weight, halves what the weights take on a GPU and what a decoder step reads, and sends the
     * products to the GEMM library's half-precision path (its activations split in two halves, so about F32's
     * precision: gpu-common's LinearOps). The CPU decodes them into F32 panels for its taller products and streams
     * them as they are in its one-row products (TensorMatrix.dotF16Oct).
     */
    static Set<DType> storedTypesKept(Set<Capability> effective) {
        Set<DType> kept = java.util.EnumSet.of(DType.F16, DType.Q8_0, DType.Q4_0);
        if (effective.contains(Capability.BF16_WEIGHTS)) kept.add(DType.BF16);
        for (DType t :
                List.of(DType.Q5_0, DType.Q5_1, DType.Q4_1, DType.Q6_K, DType.Q4_K, DType.Q5_K, DType.Q3_K, DType.Q2_K))
            if (effective.contains(Capability.weights(t).orElseThrow())) kept.add(t);
        return kept;
    }

    static WhisperConfig ggmlConfig(Map<String, Object> m) {
        java.util.function.ToIntFunction<String> h = k -> (Integer) m.get("whisper." + k);
        return new WhisperConfig(
                h.applyAsInt("n_vocab"),
                h.applyAsInt("n_audio_ctx"),
                h.applyAsInt("n_audio_state"),
                h.applyAsInt("n_audio_head"),
                h.applyAsInt("n_audio_layer"),
                h.applyAsInt("n_text_ctx"),
                h.applyAsInt("n_text_state"),
                h.applyAsInt("n_text_head"),
                h.applyAsInt("n_text_layer"),
                h.applyAsInt("n_mels"));
    }

    /** transformers' WhisperConfig fields from config.json. */
    static WhisperConfig hfConfig(Path file) throws IOException {
        if (!(ModelJson.read(file, Files.readAllBytes(file)) instanceof Map<?, ?> m))
            throw new ModelFormatException(file + ": expected a JSON object");
        java.util.function.ToIntFunction<String> f = k -> {
            if (!(m.get(k) instanceof Number n))
                throw new IllegalArgumentException(file + " has no number \"" + k + "\"");
            return n.intValue();
        };
        int d = f.applyAsInt("d_model");
        return new WhisperConfig(
                f.applyAsInt("vocab_size"),
                f.applyAsInt("max_source_positions"),
                d,
                f.applyAsInt("encoder_attention_heads"),
                f.applyAsInt("encoder_layers"),
                f.applyAsInt("max_target_positions"),
                d,
                f.applyAsInt("decoder_attention_heads"),
                f.applyAsInt("decoder_layers"),
                f.applyAsInt("num_mel_bins"));
    }

    /** The decoder step's compile-time summary (what the backend fused and where it runs). */
    public java.util.Optional<dev.audioengine.api.exec.RunSummary> runSummary() {
        return java.util.Optional.of(session.stepSummary());
    }

    public WhisperConfig config() {
        return weights.config;
    }

    public WhisperTokenizer tokenizer() {
        return tokenizer;
    }

    /**
     * Decodes one window ({@code length} ≤ 480000 samples at 16 kHz from {@code from}), greedily or by beam search:
     * the language detected first when the options name none (multilingual models), then tokens until EOT or the
     * limit.
     */
    public Decoded decode(float[] samples, int from, int length, Options options) {
        return decoding((steps, sums) -> decode(steps, sums, samples, from, length, options));
    }

    /**
     * Batching (see {@link dev.audioengine.model.task.Batching}): concurrent calls of {@link #decode} and the
     * sequential long form decode through one {@link WhisperBatch}, each in a slot of its caches, their steps run
     * together. A call that finds the batch idle decodes alone on the model's session, as without batching (the step
     * ahead where it is on, no step over empty slots). Set it before the first call; {@code NONE} (the default) keeps
     * one call at a time.
     */
    public void batching(dev.audioengine.model.task.Batching batching) {
        this.batching = java.util.Objects.requireNonNull(batching, "batching");
    }

    public dev.audioengine.model.task.Batching batching() {
        return batching;
    }

    /** What the batch has done so far ({@link dev.audioengine.model.task.BatchStats#NONE} before it is made). */
    public dev.audioengine.model.task.BatchStats batchStats() {
        synchronized (batchLock) {
            return batch == null ? dev.audioengine.model.task.BatchStats.NONE : batch.stats();
        }
    }

    /** Passes of several decoders the batch ran alone on its session (tests). */
    long severalDecoderPasses() {
        synchronized (batchLock) {
            return batch == null ? 0 : batch.severalDecoderPasses();
        }
    }

    /** One decoding call's work over the decoder it is given, with where greedy's sums may run ahead (or null). */
    private interface Work<T> {
        T run(WhisperSteps steps, java.util.concurrent.Executor sums);
    }

    /**
     * Runs {@code work} on the model's session (one call at a time, as without batching) or, with batching on and
     * other calls in the batch, on a slot of it.
     */
    private <T> T decoding(Work<T> work) {
        WhisperBatch b = batch();
        if (b != null && !(aloneWhenIdle && b.idle() && loneTurn.compareAndSet(false, true))) {
            try (WhisperBatch.Slot slot = b.lease()) {
                return work.run(slot, null);
            }
        }
        long start = System.nanoTime();
        try {
            synchronized (this) {
                return work.run(session, sums());
            }
        } finally {
            if (b != null) {
                loneTurn.set(false);
                b.countLone(System.nanoTime() - start);
            }
        }
    }

    private volatile boolean aloneWhenIdle = true;

    /** Tests: whether a call that finds the batch idle decodes alone (the default) or through a slot anyway. */
    void aloneWhenIdle(boolean alone) {
        aloneWhenIdle = alone;
    }

    /** The batch, made on first use while batching is on (null when it is off, or the budget pays for one slot). */
    private WhisperBatch batch() {
        dev.audioengine.model.task.Batching b = batching;
        if (b.maxBatch() < 2) return null;
        synchronized (batchLock) {
            if (closed) throw new IllegalStateException("the Whisper model is closed");
            if (batch == null) {
                int slots = b.slots(WhisperBatch.bytesPerSlot(config()));
                if (slots < 2) return null;
                synchronized (engine) {
                    batch = new WhisperBatch(engine, weights, slots);
                }
            }
            return batch;
        }
    }

    private Decoded decode(
            WhisperSteps session,
            java.util.concurrent.Executor sums,
            float[] samples,
            int from,
            int length,
            Options options) {
        session.encode(samples, from, length);
        String language = options.language();
        if (!tokenizer.multilingual()) language = "en";
        else if (language == null) language = bestLanguage(detectEncoded(session));
        int[] previous = options.prompt() == null ? new int[0] : tokenizer.encode(options.prompt());
        int[] prompt = WhisperDecoding.prompt(
                tokenizer, language, options.translate(), options.timestamps(), previous, config().textCtx());
        float[] logits = null;
        double noSpeech = Double.NaN;
        for (int i = 0; i < prompt.length; i++) {
            logits = session.step(prompt[i], i);
            // openai-whisper's no_speech_prob: where the model was trained to say "no speech" instead of a language
            if (prompt[i] == tokenizer.sot())
                noSpeech = Math.exp(WhisperDecoding.logSoftmax(logits)[tokenizer.noSpeech()]);
        }
        int limit = Math.min(options.maxTokens(), config().textCtx() - prompt.length);
        List<WhisperDecoding.Token> taken = new ArrayList<>();
        int audioEnd = WhisperDecoding.frames(length), lastTimestamp = -1;
        if (options.beamSize() > 1) {
            try (WhisperSteps.Decoders beams = session.decoders(options.beamSize(), prompt)) {
                var best = WhisperBeamSearch.decode(
                        beams,
                        logits,
                        prompt.length,
                        tokenizer,
                        options.timestamps(),
                        audioEnd,
                        options.beamSize(),
                        limit);
                for (WhisperBeamSearch.Step s : best.tokens()) taken.add(new WhisperDecoding.Token(s.id(), s.p()));
                return decoded(language, taken, length, noSpeech, best.averageLogProbability());
            }
        }
        WhisperDecoding.Sequence sequence = new WhisperDecoding.Sequence(options.timestamps(), audioEnd, limit);
        WhisperStepAhead ahead = new WhisperStepAhead(session, tokenizer, sums);
        for (int i = 0; i < limit; i++) {
            // whisper.cpp's greedy pick (the first of the largest probabilities after the rules), its log-probability
            // in float as whisper.cpp's plog; the next position fed meanwhile where the step ahead is on
            WhisperDecoding.Greedy g =
                    ahead.greedy(logits, taken, options.timestamps(), i + 1 < limit ? prompt.length + i : -1);
            sequence.take(i, g.id(), g.logprob(), tokenizer);
            if (g.id() == tokenizer.eot()) break;
            taken.add(new WhisperDecoding.Token(g.id(), g.probability()));
            if (g.id() > tokenizer.timestampBegin()) lastTimestamp = g.id() - tokenizer.timestampBegin();
            // whisper.cpp's end of a window: a timestamp within 100 ms of the audio's end (or past it) closes it
            if (lastTimestamp > 0 && 2 * lastTimestamp + WhisperDecoding.END_MARGIN_FRAMES >= audioEnd) break;
            if (i + 1 < limit) logits = ahead.step(g.id(), prompt.length + i);
        }
        if (session == this.session) {
            aheadTaken += ahead.taken;
            aheadRedone += ahead.redone;
        }
        return decoded(language, taken, length, noSpeech, sequence.averageLogProbability());
    }

    /**
     * A whole recording (16 kHz) in Whisper's own sequential 30 s windows with timestamp seeking, temperature
     * fallback, the no-speech guard and conditioning on earlier text, as whisper.cpp's {@code whisper_full}
     * ({@link WhisperLongForm}). The language, when the options name none (multilingual models), is detected once on
     * the first 30 s, as whisper.cpp does; {@code options.maxTokens} is whisper.cpp's own limit here.
     */
    WhisperLongForm.Result transcribeSequentially(
            float[] samples, Options options, dev.audioengine.model.task.LongFormOptions longForm) {
        return decoding((session, sums) -> transcribeSequentially(session, sums, samples, options, longForm));
    }

    private WhisperLongForm.Result transcribeSequentially(
            WhisperSteps session,
            java.util.concurrent.Executor sums,
            float[] samples,
            Options options,
            dev.audioengine.model.task.LongFormOptions longForm) {
        String language = options.language();
        if (!tokenizer.multilingual()) language = "en";
        else if (language == null) {
            session.encode(samples, 0, Math.min(samples.length, WhisperNetwork.WINDOW_SAMPLES));
            language = bestLanguage(detectEncoded(session));
        }
        int[] prompt = options.prompt() == null ? new int[0] : tokenizer.encode(options.prompt());
        return new WhisperLongForm(session, tokenizer, config().textCtx(), sums)
                .transcribe(
                        samples,
                        language,
                        options.translate(),
                        options.timestamps(),
                        options.beamSize(),
                        prompt,
                        longForm);
    }

    private Decoded decoded(
            String language, List<WhisperDecoding.Token> taken, int length, double noSpeech, double averageLogprob) {
        List<Integer> ids = taken.stream().map(WhisperDecoding.Token::id).toList();
        float[] p = new float[taken.size()];
        for (int i = 0; i < p.length; i++) p[i] = taken.get(i).probability();
        double seconds = (double) length / WhisperNetwork.SAMPLE_RATE;
        return new Decoded(
                language,
                ids,
                p,
                tokenizer.decode(ids),
                WhisperDecoding.segments(ids, tokenizer, seconds),
                noSpeech,
                averageLogprob);
    }

    /**
     * A window decoded with word timestamps.
     *
     * @param decoded    what {@link #decode} gives
     * @param text       the window's text tokens (below EOT), in order
     * @param tokenTimes each text token's time by DTW, in 10 ms units from the window's start (whisper.cpp's
     *                   {@code t_dtw})
     * @param words      the text tokens joined into timed words (seconds from the window's start), none crossing
     *                   into the next segment
     */
    public record Timed(Decoded decoded, List<Integer> text, int[] tokenTimes, List<WhisperAlignment.Word> words) {}

    /**
     * As {@link #decode}, then the text's tokens and words timed by DTW over the cross-attention of {@code heads}
     * ({@link WhisperAlignment}): one more decoder pass over the text, through a step graph that also outputs those
     * heads' weights (compiled on first use; plain decoding never runs it).
     */
    public synchronized Timed decodeTimed(
            float[] samples, int from, int length, Options options, WhisperAlignment.Heads heads) {
        // on the model's own session, whatever the batching: the alignment pass reads this window's cross caches there
        Decoded d = decode(session, sums(), samples, from, length, options);
        List<Integer> text = new ArrayList<>();
        List<Float> p = new ArrayList<>();
        int beg = tokenizer.timestampBegin(), lastTimestamp = -1, afterLastTimestamp = 0;
        for (int i = 0; i < d.tokens().size(); i++) {
            int id = d.tokens().get(i);
            if (id < tokenizer.eot()) {
                text.add(id);
                p.add(d.probabilities()[i]);
                afterLastTimestamp++;
            } else if (id > beg) {
                lastTimestamp = id - beg;
                afterLastTimestamp = 0;
            }
        }
        if (text.isEmpty()) return new Timed(d, List.of(), new int[0], List.of());
        // whisper.cpp's n_frames: the audio, up to where the window seeks next (its last timestamp) when no text
        // follows that timestamp (whisper.cpp would not keep such text in this window)
        int frames = Math.min(WhisperNetwork.MEL_FRAMES, WhisperDecoding.frames(length));
        if (lastTimestamp > 0 && afterLastTimestamp == 0) frames = Math.min(frames, 2 * lastTimestamp);
        int[] sequence = WhisperAlignment.sequence(tokenizer, d.language(), text);
        float[][][] weights = session.alignmentWeights(sequence, heads.checkedFor(config()));
        int[] times = WhisperAlignment.tokenTimes(weights, WhisperAlignment.sotRows(tokenizer), frames);
        float[] probabilities = new float[p.size()];
        for (int i = 0; i < probabilities.length; i++) probabilities[i] = p.get(i);
        // the segments partition the text tokens in order; a word never crosses from one into the next
        int[] segmentStarts = new int[d.segments().size()];
        for (int k = 1; k < segmentStarts.length; k++)
            segmentStarts[k] =
                    segmentStarts[k - 1] + d.segments().get(k - 1).tokens().size();
        return new Timed(
                d,
                List.copyOf(text),
                times,
                WhisperAlignment.words(tokenizer, d.language(), text, probabilities, times, segmentStarts));
    }

    /** The cross-attention weights of {@code heads} for {@code tokens} fed from position 0 (tests): [token][head][1500]. */
    synchronized float[][][] alignmentWeights(float[] samples, int[] tokens, WhisperAlignment.Heads heads) {
        session.encode(samples, 0, samples.length, false);
        return session.alignmentWeights(tokens, heads.checkedFor(config()));
    }

    /**
     * The language probabilities of a window (multilingual models): the decoder's logits after SOT over the language
     * tokens only, softmaxed, by code in token order.
     */
    public synchronized Map<String, Double> detectLanguage(float[] samples, int from, int length) {
        if (!tokenizer.multilingual()) throw new IllegalStateException("an English-only Whisper detects no language");
        session.encode(samples, from, length, false);
        return detectEncoded(session);
    }

    private Map<String, Double> detectEncoded(WhisperSteps session) {
        float[] logits = session.step(tokenizer.sot(), 0);
        int n = tokenizer.languages(), first = tokenizer.sot() + 1;
        double max = Double.NEGATIVE_INFINITY, sum = 0;
        for (int i = 0; i < n; i++) max = Math.max(max, logits[first + i]);
        double[] e = new double[n];
        for (int i = 0; i < n; i++) sum += e[i] = Math.exp(logits[first + i] - max);
        Map<String, Double> out = new java.util.LinkedHashMap<>();
        for (int i = 0; i < n; i++) out.put(WhisperTokenizer.LANGUAGES.get(i), e[i] / sum);
        return out;
    }

    static String bestLanguage(Map<String, Double> probabilities) {
        return probabilities.entrySet().stream()
                .max(Map.Entry.comparingByValue())
                .orElseThrow()
                .getKey();
    }

    /** The encoder's states for a window [1, 1500, d] (parity checks); the caller closes the tensor. */
    public synchronized HostTensor encoderStates(float[] samples) {
        return session.encode(samples, 0, samples.length, true);
    }

    /** Teacher forcing over a window: the raw logits after each of {@code tokens} (SOT first), [tokens.length × V]. */
    public synchronized float[] teacherForcedLogits(float[] samples, int[] tokens) {
        session.encode(samples, 0, samples.length, false);
        int v = config().vocabulary();
        float[] all = new float[tokens.length * v];
        for (int i = 0; i < tokens.length; i++) System.arraycopy(session.step(tokens[i], i), 0, all, i * v, v);
        return all;
    }

    @Override
    public synchronized void close() {
        synchronized (batchLock) {
            closed = true;
            if (batch != null) batch.close();
            batch = null;
        }
        if (sums != null) sums.close(); // idle between calls: nothing to wait for
        session.close();
        weights.close();
        file.close();
    }
}
