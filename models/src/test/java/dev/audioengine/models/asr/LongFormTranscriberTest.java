package dev.audioengine.models.asr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.audio.AudioStream;
import dev.audioengine.model.output.WavWriter;
import dev.audioengine.model.task.AsrOptions;
import dev.audioengine.model.task.SpeechSegment;
import dev.audioengine.model.task.Transcript;
import dev.audioengine.model.task.TranscriptSegment;
import dev.audioengine.model.task.VadOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Long-form transcription on a scripted VAD and a counting decoder: the windows, when they come, and the memory. */
class LongFormTranscriberTest {
    private static final int RATE = WindowDecoder.SAMPLE_RATE, CHUNK = ScriptedOfflineVad.CHUNK;
    private static final AsrOptions OPTIONS =
            // the windowing mechanics with fixed options, not the defaults: 20 s windows, 0.5 s merge gap, Silero
            // 250/300/200 ms
            AsrOptions.DEFAULTS.withMaxWindowSeconds(20).withMergeGapSeconds(0.5);

    /** What one run gave. */
    private record Run(
            List<TranscriptSegment> segments, Transcript transcript, CountingDecoder decoder, int maxBuffered) {}

    private static Run transcribe(ScriptedOfflineVad vad, long total, AsrOptions o, Random blocks) {
        CountingDecoder decoder = new CountingDecoder();
        List<TranscriptSegment> out = new ArrayList<>();
        int maxBuffered = 0;
        try (LongFormTranscriber t = new LongFormTranscriber(vad, CHUNK, decoder, o)) {
            for (long at = 0; at < total; ) {
                int n = (int) Math.min(
                        total - at, blocks.nextInt(4) == 0 ? 1 + blocks.nextInt(100_000) : 1 + blocks.nextInt(5000));
                out.addAll(t.accept(SyntheticAudio.block(at - 3, n + 5), 3, n));
                at += n;
                maxBuffered = Math.max(maxBuffered, t.bufferedSamples());
            }
            out.addAll(t.finish());
            assertThat(t.bufferedSamples()).isZero();
            return new Run(out, t.transcript(out), decoder, maxBuffered);
        }
    }

    private static List<SpeechSegment> spans(List<TranscriptSegment> segments) {
        return segments.stream()
                .map(s -> new SpeechSegment(s.startSample(), s.endSample(), s.sampleRate()))
                .toList();
    }

    @Test
    void givesTheWindowsOfTheWholeSegmentListWhateverTheBlocksAndTheDetectorsDelay() {
        for (long seed = 0; seed < 150; seed++) {
            Random rnd = new Random(seed);
            VadOptions vadOptions = new VadOptions(
                    0.5,
                    Double.NaN,
                    rnd.nextInt(400),
                    rnd.nextInt(400),
                    rnd.nextInt(300),
                    rnd.nextInt(4) == 0 ? 1 + 10 * rnd.nextDouble() : Double.POSITIVE_INFINITY);
            AsrOptions o = new AsrOptions(
                    vadOptions, 1 + 25 * rnd.nextDouble(), new double[] {0, 0.3, 0.5, 2}[rnd.nextInt(4)], 6, 0.5);
            long total = 1 + rnd.nextInt(90 * RATE);
            float[] p = randomProbabilities(rnd, (int) Math.ceilDiv(total, CHUNK));
            int[] batches = {1, 7, 512};
            ScriptedOfflineVad vad = new ScriptedOfflineVad(
                    p, total, vadOptions, batches[rnd.nextInt(3)], rnd.nextInt(3) * rnd.nextInt(2 * RATE));
            Run run = transcribe(vad, total, o, rnd);
            List<SpeechSegment> expected = SpeechWindows.plan(vad.segments, o, ChunkProbabilities.of(p, CHUNK));
            assertThat(run.decoder.windows).as("seed %d", seed).isEqualTo(expected);
            assertThat(spans(run.segments))
                    .as("seed %d: each window once, in order", seed)
                    .isEqualTo(expected);
            assertThat(vad.closed).isTrue();
        }
    }

    @Test
    void tenMinutesOfAudioKeepNoMoreThanAWindowAndASegment() {
        Random rnd = new Random(42);
        int chunks = 10 * 60 * RATE / CHUNK;
        float[] p = new float[chunks];
        Arrays.fill(p, 0.02f);
        int longest = 0;
        for (int c = 0; c < chunks; ) {
            boolean noisySilence = c > chunks / 3 && c < chunks / 3 + 3 * 60 * RATE / CHUNK; // three minutes of coughs
            if (noisySilence) {
                if (rnd.nextInt(300) == 0)
                    Arrays.fill(p, c, Math.min(chunks, c + 2 + rnd.nextInt(4)), 0.9f); // under min-speech
                c++;
                continue;
            }
            int speech = 10 + rnd.nextInt(12 * RATE / CHUNK - 10); // 0.3 to 12 s
            longest = Math.max(longest, speech);
            Arrays.fill(p, c, Math.min(chunks, c + speech), 0.9f);
            c += speech + 3 + rnd.nextInt(5 * RATE / CHUNK); // gaps of 0.1 to 5 s
        }
        long total = (long) chunks * CHUNK;
        for (int batch : new int[] {1, 512}) {
            ScriptedOfflineVad vad = new ScriptedOfflineVad(p, total, OPTIONS.vad(), batch, RATE / 2);
            CountingDecoder decoder = new CountingDecoder();
            int maxBuffered = 0, maxInNoise = 0;
            List<TranscriptSegment> out = new ArrayList<>();
            try (LongFormTranscriber t = new LongFormTranscriber(vad, CHUNK, decoder, OPTIONS)) {
                for (long at = 0; at < total; at += 4096) {
                    int n = (int) Math.min(4096, total - at);
                    out.addAll(t.accept(SyntheticAudio.block(at, n), 0, n));
                    maxBuffered = Math.max(maxBuffered, t.bufferedSamples());
                    long c = at / CHUNK;
                    if (c > chunks / 3 + 30 * RATE / CHUNK && c < chunks / 3 + 3 * 60 * RATE / CHUNK)
                        maxInNoise = Math.max(maxInNoise, t.bufferedSamples());
                }
                out.addAll(t.finish());
            }
            // the VAD's reporting delay (0.5 s, and a batch of 512 chunks = 16.4 s when it batches) comes on top of
            // the pending window (20 s) and the segment after it (at most 12 s); 2 s cover the pads, gap and blocks
            long latency = RATE / 2 + (long) (batch - 1) * CHUNK;
            assertThat((long) maxBuffered)
                    .as("batch %d", batch)
                    .isLessThan(20L * RATE + (long) longest * CHUNK + latency + 2L * RATE);
            assertThat((long) maxInNoise)
                    .as("batch %d: silence with short noises is let go", batch)
                    .isLessThan(latency + RATE);
            assertThat(vad.segments).hasSizeGreaterThan(30);
            assertThat(decoder.windows)
                    .isEqualTo(SpeechWindows.plan(vad.segments, OPTIONS, ChunkProbabilities.of(p, CHUNK)));
            assertThat(spans(out)).isEqualTo(decoder.windows);
        }
    }

    @Test
    void audioThatStartsAndEndsInSpeechIsCoveredToBothEnds() {
        long total = 8L * RATE + 100;
        float[] p = ScriptedOfflineVad.speechIn(
                (int) Math.ceilDiv(total, CHUNK), 0, 80, 120, (int) Math.ceilDiv(total, CHUNK));
        ScriptedOfflineVad vad = new ScriptedOfflineVad(p, total, OPTIONS.vad(), 1, 0);
        Run run = transcribe(vad, total, OPTIONS, new Random(1));
        assertThat(spans(run.segments))
                .containsExactly(
                        new SpeechSegment(0, 80 * CHUNK + 3200, RATE),
                        new SpeechSegment(120 * CHUNK - 3200, total, RATE));
    }

    @Test
    void noSpeechGivesAnEmptyTranscriptOfTheAudiosLength() {
        long total = 30L * RATE + 5;
        ScriptedOfflineVad vad = new ScriptedOfflineVad(
                ScriptedOfflineVad.speechIn((int) Math.ceilDiv(total, CHUNK)), total, OPTIONS.vad(), 1, 0);
        Run run = transcribe(vad, total, OPTIONS, new Random(2));
        assertThat(run.transcript.segments()).isEmpty();
        assertThat(run.transcript.text()).isEmpty();
        assertThat(run.transcript.audioSeconds()).isEqualTo(total / (double) RATE);
        assertThat(run.transcript.decodedTokens()).isZero();
        assertThat(run.decoder.windows).isEmpty();
        assertThat(run.maxBuffered).isLessThan(RATE + 3200 + CHUNK);
    }

    @Test
    void aWindowIsDecodedOnceTheSilenceAfterItRulesOutAMerge() {
        long total = 60L * RATE;
        float[] p = ScriptedOfflineVad.speechIn((int) (total / CHUNK), 31, 94); // 1 to 3 s, silence after
        ScriptedOfflineVad vad = new ScriptedOfflineVad(p, total, OPTIONS.vad(), 1, 0);
        CountingDecoder decoder = new CountingDecoder();
        try (LongFormTranscriber t = new LongFormTranscriber(vad, CHUNK, decoder, OPTIONS)) {
            List<TranscriptSegment> early = new ArrayList<>();
            for (long at = 0; at < 5L * RATE; at += 1000)
                early.addAll(t.accept(SyntheticAudio.block(at, 1000), 0, 1000));
            assertThat(spans(early)).containsExactly(new SpeechSegment(31 * CHUNK - 3200, 94 * CHUNK + 3200, RATE));
            assertThat(t.finish()).isEmpty();
        }
    }

    @Test
    void theTranscriptSumsTokensAndJoinsText() {
        long total = 1600L * CHUNK;
        float[] p = ScriptedOfflineVad.speechIn((int) (total / CHUNK), 100, 200, 400, 1000, 1100, 1500);
        ScriptedOfflineVad vad = new ScriptedOfflineVad(p, total, OPTIONS.vad(), 1, 0);
        Transcript tr = LongFormTranscriber.transcribe(
                new FakeDetector(() -> vad, null), new CountingDecoder(), OPTIONS, SyntheticAudio.block(0, (int)
                        total));
        assertThat(tr.segments()).hasSize(3); // 400-1200 and 1300-2000 are 100 chunks (3.2 s) apart
        assertThat(tr.decodedTokens())
                .isEqualTo(
                        tr.segments().stream().mapToLong(s -> s.tokens().size()).sum())
                .isGreaterThan(3);
        assertThat(tr.text())
                .isEqualTo(String.join(
                        " ", tr.segments().stream().map(TranscriptSegment::text).toList()));
        assertThat(tr.audioSeconds()).isEqualTo(total / (double) RATE);
        assertThat(vad.closed).isTrue();
    }

    @Test
    void theStaticFormOpensAnOfflineSessionAtSixteenKilohertzWithTheVadOptions() {
        long total = 100L * CHUNK;
        ScriptedOfflineVad vad =
                new ScriptedOfflineVad(ScriptedOfflineVad.speechIn((int) (total / CHUNK)), total, OPTIONS.vad(), 1, 0);
        FakeDetector detector = new FakeDetector(() -> vad, null);
        LongFormTranscriber.transcribe(detector, new CountingDecoder(), OPTIONS, new float[(int) total]);
        assertThat(detector.offlineRate).isEqualTo(RATE);
        assertThat(detector.offlineOptions).isEqualTo(OPTIONS.vad());
    }

    @Test
    void theStreamFormHandsEachSegmentOverWhileTheRestIsStillUnread(@TempDir Path dir) throws IOException {
        long total = 1600L * CHUNK; // 51 s: three windows, the first settled long before the end
        float[] p = ScriptedOfflineVad.speechIn((int) (total / CHUNK), 100, 200, 400, 1000, 1100, 1500);
        ScriptedOfflineVad vad = new ScriptedOfflineVad(p, total, OPTIONS.vad(), 1, 0);
        Path wav = dir.resolve("speech.wav");
        WavWriter.writeFloat(wav, SyntheticAudio.block(0, (int) total), RATE);
        List<TranscriptSegment> handed = new ArrayList<>();
        List<Long> readWhenHanded = new ArrayList<>();
        try (AudioStream in = AudioStream.open(wav)) {
            Transcript tr = LongFormTranscriber.transcribe(
                    new FakeDetector(() -> vad, null), new CountingDecoder(), OPTIONS, in, s -> {
                        handed.add(s);
                        readWhenHanded.add(in.samplesRead());
                    });
            assertThat(handed).isEqualTo(tr.segments()).hasSize(3);
        }
        assertThat(readWhenHanded.getFirst())
                .as("the first window came before the end of the audio")
                .isLessThan(total / 2);
    }

    @Test
    void aDecoderThatMisplacesItsWindowIsCaught() {
        long total = 300L * CHUNK;
        ScriptedOfflineVad vad = new ScriptedOfflineVad(
                ScriptedOfflineVad.speechIn((int) (total / CHUNK), 50, 100), total, OPTIONS.vad(), 1, 0);
        WindowDecoder shifted =
                (samples, from, length, start) -> new TranscriptSegment(0, length, RATE, "x", List.of());
        try (LongFormTranscriber t = new LongFormTranscriber(vad, CHUNK, shifted, OPTIONS)) {
            assertThatThrownBy(() -> {
                        t.accept(new float[(int) total], 0, (int) total);
                        t.finish();
                    })
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("for the window [" + (50 * CHUNK - 3200));
        }
    }

    @Test
    void aDetectorThatReportsSpeechBeforeTheAudioKeptIsCaught() {
        long total = 1000L * CHUNK;
        // silence all along, yet a segment at the start reported at the end: against the rules VadOptions names
        ScriptedOfflineVad liar =
                new ScriptedOfflineVad(ScriptedOfflineVad.speechIn((int) (total / CHUNK)), total, OPTIONS.vad(), 1, 0) {
                    @Override
                    public Result finish() {
                        Result r = super.finish();
                        return new Result(r.probabilities(), List.of(new SpeechSegment(1000, 9000, RATE)));
                    }
                };
        try (LongFormTranscriber t = new LongFormTranscriber(liar, CHUNK, new CountingDecoder(), OPTIONS)) {
            t.accept(new float[(int) total], 0, (int) total);
            assertThatThrownBy(t::finish)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("[1000, 9000)")
                    .hasMessageContaining("audio kept");
        }
    }

    @Test
    void noAudioAfterTheEnd() {
        ScriptedOfflineVad vad = new ScriptedOfflineVad(new float[1], 10, OPTIONS.vad(), 1, 0);
        LongFormTranscriber t = new LongFormTranscriber(vad, CHUNK, new CountingDecoder(), OPTIONS);
        t.finish();
        assertThatThrownBy(() -> t.accept(new float[1], 0, 1)).hasMessageContaining("finished");
        t.close();
        assertThat(vad.closed).isTrue();
        assertThatThrownBy(t::finish).hasMessageContaining("closed");
    }

    /** Runs of speech, silence and in-between chunks. */
    private static float[] randomProbabilities(Random rnd, int chunks) {
        float[] p = new float[chunks];
        for (int i = 0; i < chunks; ) {
            int kind = rnd.nextInt(3);
            int n = Math.min(chunks - i, 1 + rnd.nextInt(rnd.nextInt(5) == 0 ? 1500 : 60));
            for (int k = 0; k < n; k++, i++)
                p[i] = kind == 0
                        ? 0.5f + 0.5f * rnd.nextFloat()
                        : kind == 1 ? 0.3f * rnd.nextFloat() : 0.35f + 0.15f * rnd.nextFloat();
        }
        return p;
    }
}
