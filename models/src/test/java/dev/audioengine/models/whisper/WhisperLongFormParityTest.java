package dev.audioengine.models.whisper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.model.task.LongFormOptions;
import dev.audioengine.models.whisper.WhisperNetwork.WhisperConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whisper's long-form decoding ({@link WhisperLongForm}) against whisper.cpp's {@code whisper_full} on a recording
 * longer than one window: the same seeded random weights (a whisper.cpp file by {@link GgmlWriter}), the same audio,
 * whisper-cli with its fallback on; every window's tokens, in whisper-cli's JSON, must be the engine's, and with
 * timestamps every segment's times (which say where each window sought to).
 */
class WhisperLongFormParityTest {
    @BeforeAll
    static void build() throws Exception {
        WhisperCppParityTest.build();
    }

    /** Three decoder layers: whisper.cpp forces no timestamps on a 2-layer decoder of 51865 tokens (distil-whisper). */
    static final WhisperConfig CONFIG = new WhisperConfig(51865, 1500, 64, 4, 2, 448, 64, 4, 3, 80);

    /** A seed whose greedy pass over the audio takes more windows than this is not used (see {@link #run}). */
    static final int MAX_WINDOWS = 8;

    /**
     * One comparison: timestamps on or off, conditioning on or off (whisper-cli -mc 0), the no-speech threshold
     * (-nth), the decoder positions from which the random weights push towards EOT, the timestamp tokens' boost, the
     * audio's length, the temperature increment (-tpi), best-of (-bo) and the beam size at temperature 0 (-bs).
     */
    record Case(
            boolean timestamps,
            boolean condition,
            double noSpeech,
            int eotFrom,
            float boost,
            int seconds,
            double increment,
            int bestOf,
            int beamSize) {
        /** Greedy at temperature 0 (-bs 1). */
        Case(
                boolean timestamps,
                boolean condition,
                double noSpeech,
                int eotFrom,
                float boost,
                int seconds,
                double increment,
                int bestOf) {
            this(timestamps, condition, noSpeech, eotFrom, boost, seconds, increment, bestOf, 1);
        }
    }

    /** What both sides did with one seed. */
    record Run(
            long seed,
            WhisperLongForm.Result ours,
            List<Integer> listed,
            List<Integer> theirs,
            int agreedPrefix,
            List<int[]> ourOffsets,
            List<int[]> theirOffsets) {}

    /**
     * Runs a case for one seed. The log-probability threshold is set just above the engine's mean log-probability
     * of the first window decoded greedily, so that the first window is doubtful at temperature 0: it falls back
     * (or, with -nth 0, is taken for silence), whatever the seed. Returns null, to draw another seed, when that greedy
     * pass takes more than {@link #MAX_WINDOWS} windows.
     */
    Run run(Path dir, long seed, Case c) throws Exception {
        System.err.println("WhisperLongFormParityTest seed " + seed + " " + c);
        GgmlWriter model = new GgmlWriter(CONFIG, true, seed, c.eotFrom());
        if (c.boost() != 1) model.boostTimestamps(c.boost());
        Path file = dir.resolve("ggml-random.bin");
        model.write(file, Gpt2Vocabulary.bytes());
        float[] audio = varied(seed, c.seconds() * 16000 + 77);
        Path wav = dir.resolve("audio.wav");
        WhisperCppParityTest.writeWav(wav, audio);
        try (AudioEngine engine =
                        AudioEngine.builder().backend("cpu").threads(2).build();
                WhisperModel ours = WhisperModel.load(engine, file)) {
            WhisperModel.Options decoding =
                    new WhisperModel.Options("en", false, c.timestamps(), 220, c.beamSize(), null);
            LongFormOptions o = LongFormOptions.DEFAULTS
                    .withConditionOnPrevious(c.condition())
                    .withTemperatures(0, c.increment())
                    .withBestOf(c.bestOf());
            double lpt;
            WhisperLongForm.Result probe = ours.transcribeSequentially(
                    audio,
                    decoding,
                    o.withTemperatures(0, 0).withConditionOnPrevious(c.condition() && c.noSpeech() > 0));
            if (probe.windows().size() > MAX_WINDOWS) {
                // random weights may end window after window on an early timestamp, seeking a few frames at a time:
                // a correct run, but minutes long on both sides; another seed is drawn
                System.err.println(
                        "seed " + seed + " seeks in " + probe.windows().size() + " windows; another is drawn");
                return null;
            }
            if (c.noSpeech() > 0) {
                double first = probe.windows().getFirst().averageLogProbability();
                lpt = Double.isFinite(first) ? first + 0.01 : -1;
            } else {
                // just above the first window's mean: it is silence, and so are the windows after it until one whose
                // mean (without earlier text, as the silence before it leaves it) is above; a seed with none is
                // replaced
                double first = probe.windows().getFirst().averageLogProbability();
                lpt = first + 0.01;
                double threshold = lpt;
                if (!Double.isFinite(first)
                        || probe.windows().stream()
                                .skip(1)
                                .noneMatch(w -> w.averageLogProbability() > threshold + 0.01)) {
                    System.err.println("seed " + seed + " has no window surer than its first; another is drawn");
                    return null;
                }
            }
            List<String> command = new ArrayList<>(List.of(
                    WhisperCppParityTest.cli.toString(),
                    "-m",
                    file.toString(),
                    "-f",
                    wav.toString(),
                    "-l",
                    "en",
                    "-bs",
                    Integer.toString(c.beamSize()),
                    "-bo",
                    Integer.toString(c.bestOf()),
                    "-tpi",
                    String.format(Locale.ROOT, "%.9e", c.increment()),
                    "-nfa",
                    "-t",
                    "2",
                    "-lpt",
                    String.format(Locale.ROOT, "%.9e", lpt),
                    "-nth",
                    String.format(Locale.ROOT, "%.9e", c.noSpeech()),
                    "-ojf",
                    "-of",
                    dir.resolve("out").toString()));
            if (!c.timestamps()) command.add("-nt");
            if (!c.condition()) command.addAll(List.of("-mc", "0"));
            exec(dir, command);
            Map<?, ?> json = WhisperCliJson.read(dir.resolve("out.json"));
            List<Integer> theirs = new ArrayList<>();
            List<int[]> theirOffsets = new ArrayList<>();
            for (Object segment : (List<?>) json.get("transcription")) {
                Map<?, ?> offsets = (Map<?, ?>) ((Map<?, ?>) segment).get("offsets");
                theirOffsets.add(
                        new int[] {((Number) offsets.get("from")).intValue(), ((Number) offsets.get("to")).intValue()});
                for (Object token : (List<?>) ((Map<?, ?>) segment).get("tokens"))
                    theirs.add(((Number) ((Map<?, ?>) token).get("id")).intValue());
            }

            WhisperLongForm.Result r = ours.transcribeSequentially(
                    audio, decoding, o.withThresholds(lpt, c.noSpeech(), 2.4, Double.POSITIVE_INFINITY));
            WhisperTokenizer t = ours.tokenizer();
            int beg = t.timestampBegin();
            List<Integer> listed = new ArrayList<>();
            List<int[]> ourOffsets = new ArrayList<>();
            int agreed = -1; // the listed tokens before the first window decoded by sampling
            for (WhisperLongForm.Window w : r.windows()) {
                System.err.printf(
                        Locale.ROOT,
                        "window seek %d delta %d temperature %.1f prompt %d mean %.3f no-speech %.3g%s tokens %s%n",
                        w.seek(),
                        w.seekDelta(),
                        w.temperature(),
                        w.prompt().length,
                        w.averageLogProbability(),
                        w.noSpeechProbability(),
                        w.noSpeech() ? " SILENCE" : "",
                        w.tokens());
                if (w.temperature() > 0 && agreed < 0) agreed = listed.size();
                if (w.noSpeech() || w.tokens().isEmpty()) continue;
                List<Integer> ids = w.tokens();
                List<Integer> segmented = WhisperCppParityTest.whisperCppSegmentTokens(ids, t);
                for (int i : WhisperCppParityTest.whisperCppJsonTokens(segmented, t)) listed.add(segmented.get(i));
                for (int i = 0; i < w.segments().size(); i++) {
                    WhisperModel.Segment s = w.segments().get(i);
                    // a window's first segment opened by text starts at whisper.cpp's likeliest timestamp then:
                    // not compared (-1), as in WhisperCppParityTest
                    int from = i == 0 && ids.getFirst() < beg ? -1 : (int) Math.round(s.start() * 1000);
                    ourOffsets.add(new int[] {from, (int) Math.round(s.end() * 1000)});
                }
            }
            System.err.println("engine      " + listed + "\nwhisper.cpp " + theirs);
            return new Run(seed, r, listed, theirs, agreed < 0 ? listed.size() : agreed, ourOffsets, theirOffsets);
        }
    }

    /** Harmonic chirps of 10 s, each from its own seed: windows that differ from each other. */
    static float[] varied(long seed, int n) {
        float[] a = new float[n];
        for (int at = 0, k = 0; at < n; at += 160000, k++) {
            float[] piece = WhisperCppParityTest.audio(seed + k, Math.min(160000, n - at));
            System.arraycopy(piece, 0, a, at, piece.length);
        }
        return a;
    }

    /** Whether whisper.cpp's run is the engine's, token for token and (with timestamps) segment for segment. */
    static boolean same(Run r, boolean timestamps) {
        if (!r.listed().equals(r.theirs())) return false;
        if (!timestamps) return true;
        if (r.ourOffsets().size() != r.theirOffsets().size()) return false;
        for (int i = 0; i < r.ourOffsets().size(); i++) {
            int[] a = r.ourOffsets().get(i), b = r.theirOffsets().get(i);
            if ((a[0] >= 0 && a[0] != b[0]) || a[1] != b[1]) return false;
        }
        return true;
    }

    /**
     * Compares a case over fresh seeds (-Dwhisper.parity.seed replays one). Every seed must agree with whisper.cpp
     * up to the first window decoded by sampling or be replaced by the next (a greedy step parts at a near tie, see
     * below); from there a draw may land on the other side of a boundary between
     * two tokens (the engine's probabilities are within 3e-3 of whisper.cpp's, whose activations are F16, and a draw
     * at temperature T sees logit differences T times larger), so a seed may part there, and the next seed is
     * tried; one of three must agree entirely.
     */
    List<Run> compare(Path dir, Case c) throws Exception {
        Long fixed = Long.getLong("whisper.parity.seed");
        List<Run> runs = new ArrayList<>();
        for (int k = 0, drawn = 0; k < (fixed != null ? 1 : 3); k++) {
            long seed = fixed != null ? fixed : new SplittableRandom().nextLong();
            Run r = run(Files.createDirectories(dir.resolve("seed" + k + "-" + drawn++)), seed, c);
            if (r == null) {
                assertThat(drawn).as("seeds drawn that seek in few windows").isLessThan(20);
                k--;
                continue;
            }
            runs.add(r);
            int parted = 0; // where whisper.cpp's tokens part from the engine's, if before the sampled windows
            while (parted < r.agreedPrefix()
                    && parted < r.theirs().size()
                    && r.theirs().get(parted).equals(r.listed().get(parted))) parted++;
            if (parted < r.agreedPrefix()) {
                // greedy F16 against F32 takes either side of a near tie: seed 8107390312228682253 parted between two
                // timestamps whose log-probabilities in the engine are -1.26154 and -1.26240 (9e-4 apart, the
                // tolerance 3e-3), seed 8789078362552864967 between two text tokens; another seed is tried, and one
                // of three must still agree entirely, so a rule the engine gets wrong, which parts every seed, still
                // fails
                System.err.println(
                        "seed " + seed + " parted from whisper.cpp before its sampled windows, at listed token "
                                + parted + " (engine " + r.listed().get(parted) + ", whisper.cpp "
                                + (parted < r.theirs().size() ? r.theirs().get(parted) : "none") + ")");
                continue;
            }
            assertThat(r.theirs().size()).as("seed %s", seed).isGreaterThanOrEqualTo(r.agreedPrefix());
            assertThat(r.theirs().subList(0, r.agreedPrefix()))
                    .as("the windows before the first one decoded by sampling, seed %s", seed)
                    .isEqualTo(r.listed().subList(0, r.agreedPrefix()));
            if (same(r, c.timestamps())) return runs;
            System.err.println("seed " + seed + " parted from whisper.cpp in a window decoded by sampling");
        }
        throw new AssertionError("no seed agreed with whisper.cpp entirely: "
                + runs.stream().map(Run::seed).toList());
    }

    /**
     * A run of {@link #compare} whose seed also exercises what the test is about ({@code covers}: a fallback, a prompt
     * from earlier text, a seek to a timestamp): a seed that agrees with whisper.cpp without it is replaced, at most 8
     * times, so that a fresh seed never passes a test by not reaching its subject. The parity checks of
     * {@link #compare} hold for every seed drawn.
     */
    Run covering(Path dir, Case c, java.util.function.Predicate<Run> covers) throws Exception {
        Run r = null;
        for (int attempt = 0; attempt < 8; attempt++) {
            r = compare(Files.createDirectories(dir.resolve("attempt" + attempt)), c)
                    .getLast();
            if (covers.test(r) || Long.getLong("whisper.parity.seed") != null) return r;
            System.err.println("seed " + r.seed() + " agreed without reaching the case's subject; another is drawn");
        }
        return r;
    }

    private static boolean sought(Run r) {
        return r.ours().windows().stream().anyMatch(w -> w.seekDelta() != 3000 && w.seek() + w.seekDelta() < 4500);
    }

    private static boolean keptBeams(Run r) {
        return r.ours().windows().stream()
                .anyMatch(w -> w.temperature() == 0 && !w.tokens().isEmpty());
    }

    private static boolean fellBack(Run r) {
        return r.ours().windows().stream().anyMatch(w -> w.temperature() > 0);
    }

    private static boolean conditioned(Run r, int previousToken) {
        return r.ours().windows().stream().anyMatch(w -> w.prompt()[0] == previousToken);
    }

    /**
     * Timestamps, fallback (temperatures 0, 0.4, 0.8: the last one above the conditioning cut-off; best of 3, which
     * keeps whisper.cpp's runs short where small seeks make many windows), conditioning: the windows seek to their last
     * timestamp pair (or skip 30 s), 45 s of audio.
     */
    @Test
    void seekingWithFallbackAndConditioningMatchesWhisperCpp(@TempDir Path dir) throws Exception {
        Case c = new Case(true, true, 0.6, 3 + 16, 1.6f, 45, 0.4, 3);
        int previous = new WhisperTokenizer(new byte[0][], CONFIG.vocabulary()).previous();
        Run r = covering(dir, c, x -> fellBack(x) && conditioned(x, previous) && sought(x));
        assertThat(fellBack(r)).as("a window decoded again hotter").isTrue();
        assertThat(conditioned(r, previous))
                .as("a window prompted with earlier text")
                .isTrue();
        assertThat(r.ours().windows()).hasSizeGreaterThan(1);
        assertThat(sought(r))
                .as("a window that sought to its last timestamp rather than skipping 30 s")
                .isTrue();
    }

    /**
     * Beam search inside the long-form loop (-bs 5, whisper-cli's default), with the fallback, conditioning and seeking
     * of the first case. whisper.cpp draws beam search's candidates from the per-decoder generators its sampling uses,
     * so their state carries from window to window and from one temperature to the next; and with beam search chosen
     * its fallback passes are beam searches too (best of 3 beams, 5 draws each from the divided logits), which the
     * engine did not do until this test found it (it sampled one token per decoder there, and most seeds parted from
     * whisper.cpp at the first fallback). Covered: a window kept from its beams at temperature 0, and one decoded
     * again hotter.
     */
    @Test
    void beamSearchInTheLongFormLoopMatchesWhisperCpp(@TempDir Path dir) throws Exception {
        Case c = new Case(true, true, 0.6, 3 + 16, 1.6f, 45, 0.4, 3, 5);
        Run r = covering(dir, c, x -> fellBack(x) && keptBeams(x));
        assertThat(fellBack(r))
                .as("a window decoded again hotter after its beams")
                .isTrue();
        assertThat(keptBeams(r))
                .as("a window whose beams at temperature 0 were kept")
                .isTrue();
        assertThat(r.ours().windows()).hasSizeGreaterThan(1);
    }

    /** Beam search in the loop without timestamps (-nt), at whisper-cli's defaults otherwise (-bs 5 -bo 5 -tpi 0.2). */
    @Test
    void beamSearchWithoutTimestampsMatchesWhisperCpp(@TempDir Path dir) throws Exception {
        Case c = new Case(false, true, 0.6, 4 + 14, 1, 70, 0.2, 5, 5);
        Run r = covering(dir, c, x -> fellBack(x) && keptBeams(x));
        assertThat(fellBack(r)).isTrue();
        assertThat(keptBeams(r)).isTrue();
    }

    /**
     * A seed on which the engine, before it ran the fallback passes as beam searches, parted from whisper.cpp at the
     * first token of its first fallback window (the test above caught that in about half its runs, since its rule lets
     * one seed of three part in a sampled window): replayed, it must agree entirely, segments included. It falls back
     * in its first window and keeps its second from the beams.
     */
    @Test
    void aSeedTheOldBeamFallbackPartedOnAgreesEntirely(@TempDir Path dir) throws Exception {
        Case c = new Case(true, true, 0.6, 3 + 16, 1.6f, 45, 0.4, 3, 5);
        Run r = run(dir, -3247739210695073603L, c);
        assertThat(r).as("the seed decodes in few windows").isNotNull();
        assertThat(fellBack(r)).isTrue();
        assertThat(keptBeams(r)).isTrue();
        assertThat(r.listed()).as("the engine's tokens against whisper.cpp's").isEqualTo(r.theirs());
        assertThat(same(r, true)).as("segment for segment").isTrue();
    }

    /** The same without conditioning (whisper-cli -mc 0). */
    @Test
    void seekingWithoutConditioningMatchesWhisperCpp(@TempDir Path dir) throws Exception {
        Case c = new Case(true, false, 0.6, 3 + 16, 1.6f, 45, 0.4, 3);
        Run r = covering(dir, c, WhisperLongFormParityTest::fellBack);
        assertThat(fellBack(r)).isTrue();
        assertThat(r.ours().windows()).allMatch(w -> w.prompt().length == 3);
    }

    /**
     * Without timestamps (-nt), at whisper-cli's own defaults (fallback by 0.2, best of 5): every window 30 s, its
     * result ending in EOT, which whisper.cpp keeps in the text the next window is prompted with.
     */
    @Test
    void windowsWithoutTimestampsMatchWhisperCpp(@TempDir Path dir) throws Exception {
        Case c = new Case(false, true, 0.6, 4 + 14, 1, 70, 0.2, 5);
        int previous = new WhisperTokenizer(new byte[0][], CONFIG.vocabulary()).previous();
        Run r = covering(dir, c, x -> fellBack(x) && conditioned(x, previous));
        assertThat(fellBack(r)).isTrue();
        assertThat(conditioned(r, previous)).isTrue();
    }

    /**
     * The no-speech guard: with -nth 0 every window whose mean log-probability is below the threshold is taken for
     * silence (no fallback then: it needs the no-speech probability below the threshold), its text dropped and kept
     * out of the next windows' prompts. The threshold is set just above the first window's mean (a seed with no surer
     * window later is replaced), so that some windows are silence and one is not.
     */
    @Test
    void windowsTakenForSilenceMatchWhisperCpp(@TempDir Path dir) throws Exception {
        Case c = new Case(true, true, 0, 3 + 16, 1.6f, 45, 0.4, 3);
        Run r = compare(dir, c).getLast();
        assertThat(r.ours().windows().stream().anyMatch(w -> w.noSpeech())).isTrue();
        assertThat(r.ours().windows().stream().anyMatch(w -> !w.noSpeech())).isTrue();
    }

    /** The no-speech guard with beam search in the loop (-bs 5): windows taken for silence after their beams. */
    @Test
    void beamSearchWindowsTakenForSilenceMatchWhisperCpp(@TempDir Path dir) throws Exception {
        Case c = new Case(true, true, 0, 3 + 16, 1.6f, 45, 0.4, 3, 5);
        Run r = compare(dir, c).getLast();
        assertThat(r.ours().windows().stream().anyMatch(w -> w.noSpeech())).isTrue();
        assertThat(r.ours().windows().stream().anyMatch(w -> !w.noSpeech())).isTrue();
    }

    private static String exec(Path dir, List<String> command) throws Exception {
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
