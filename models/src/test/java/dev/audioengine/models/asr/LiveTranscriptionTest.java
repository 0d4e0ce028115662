package dev.audioengine.models.asr;

import static dev.audioengine.models.asr.ScriptedVadStream.end;
import static dev.audioengine.models.asr.ScriptedVadStream.start;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.model.task.AsrOptions;
import dev.audioengine.model.task.SpeechSegment;
import dev.audioengine.model.task.TranscriptEvent;
import dev.audioengine.model.task.TranscriptSegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Live transcription on scripted VAD boundaries and a counting decoder: partials, finals, cuts, and what is kept. */
class LiveTranscriptionTest {
    private static final int RATE = WindowDecoder.SAMPLE_RATE;
    private static final AsrOptions OPTIONS = AsrOptions.DEFAULTS; // partials every 0.5 s, 20 s windows
    private static final AsrOptions FIVE_S = AsrOptions.DEFAULTS.withMaxWindowSeconds(5);
    /** How late Silero reports a START with these options at most when the speech is clear: min-speech, pad, two chunks. */
    private static final int START_DELAY = 4000 + 3200 + 1024;

    private static final int PAD = 3200, CHUNK = ScriptedOfflineVad.CHUNK;

    /** An event and the samples accepted when it came. */
    private record Emitted(TranscriptEvent event, long at) {
        boolean isFinal() {
            return event instanceof TranscriptEvent.Final;
        }

        SpeechSegment span() {
            return new SpeechSegment(
                    event.segment().startSample(), event.segment().endSample(), RATE);
        }
    }

    private static List<Emitted> feed(LiveTranscription t, long total, int block) {
        List<Emitted> out = new ArrayList<>();
        for (long at = 0; at < total; ) {
            int n = (int) Math.min(block, total - at);
            for (TranscriptEvent e : t.accept(SyntheticAudio.block(at - 1, n + 1), 1, n))
                out.add(new Emitted(e, at + n));
            at += n;
        }
        for (TranscriptEvent e : t.finish()) out.add(new Emitted(e, total));
        return out;
    }

    private static SpeechSegment span(long start, long end) {
        return new SpeechSegment(start, end, RATE);
    }

    private static List<SpeechSegment> finals(List<Emitted> events) {
        return events.stream().filter(Emitted::isFinal).map(Emitted::span).toList();
    }

    @Test
    void anOpenSegmentIsReDecodedEveryHalfSecondThenFinalOnce() {
        ScriptedVadStream vad = new ScriptedVadStream(List.of(start(16_000, 24_000), end(64_000, 70_400)));
        List<Emitted> events = feed(new LiveTranscription(vad, new CountingDecoder(), OPTIONS), 5L * RATE, 1600);
        List<Emitted> expected = new ArrayList<>();
        for (long at = 24_000; at <= 64_000; at += 8000) {
            expected.add(new Emitted(new TranscriptEvent.Partial(segment(16_000, at)), at));
        }
        expected.add(new Emitted(new TranscriptEvent.Final(segment(16_000, 64_000)), 70_400));
        assertThat(events).isEqualTo(expected);
    }

    private static TranscriptSegment segment(long from, long to) {
        return new TranscriptSegment(
                from,
                to,
                RATE,
                "w" + from + "-" + to,
                java.util.Collections.nCopies(1 + (int) ((to - from) / RATE), 7));
    }

    @Test
    void aSegmentReachingTheWindowLimitIsCutThereAtOnceAndGoesOn() {
        ScriptedVadStream vad = new ScriptedVadStream(List.of(start(16_000, 24_000), end(208_000, 212_800)));
        List<Emitted> events = feed(new LiveTranscription(vad, new CountingDecoder(), FIVE_S), 15L * RATE, 1600);
        List<Emitted> f = events.stream().filter(Emitted::isFinal).toList();
        assertThat(f)
                .extracting(Emitted::span)
                .containsExactly(span(16_000, 96_000), span(96_000, 176_000), span(176_000, 208_000));
        assertThat(f).extracting(Emitted::at).containsExactly(97_600L, 177_600L, 212_800L);
        assertThat(events.stream()
                        .filter(e -> !e.isFinal())
                        .allMatch(e -> e.event.segment().endSample()
                                        - e.event.segment().startSample()
                                <= 80_000))
                .isTrue();
    }

    @Test
    void oneBigBlockGivesTheFinalsOfSmallOnes() {
        List<ScriptedVadStream.Scripted> script =
                List.of(start(16_000, 24_000), end(208_000, 212_000), start(220_000, 226_000), end(230_500, 236_000));
        List<Emitted> big = feed(
                new LiveTranscription(new ScriptedVadStream(script), new CountingDecoder(), FIVE_S),
                15L * RATE,
                15 * RATE);
        List<Emitted> small = feed(
                new LiveTranscription(new ScriptedVadStream(script), new CountingDecoder(), FIVE_S), 15L * RATE, 333);
        assertThat(finals(big))
                .isEqualTo(finals(small))
                .containsExactly(
                        span(16_000, 96_000), span(96_000, 176_000), span(176_000, 208_000), span(220_000, 230_500));
        assertThat(big)
                .as("no partial: nothing is open at the end of the one call")
                .allMatch(Emitted::isFinal);
    }

    @Test
    void finishReportsTheSegmentStillOpen() {
        List<Emitted> closedByVad = feed(
                new LiveTranscription(
                        new ScriptedVadStream(List.of(start(16_000, 24_000), end(48_000, Long.MAX_VALUE))),
                        new CountingDecoder(),
                        OPTIONS),
                3L * RATE,
                1600);
        assertThat(closedByVad.getLast())
                .isEqualTo(new Emitted(new TranscriptEvent.Final(segment(16_000, 48_000)), 48_000));
        List<Emitted> leftOpen = feed(
                new LiveTranscription(
                        new ScriptedVadStream(List.of(start(16_000, 24_000))), new CountingDecoder(), OPTIONS),
                3L * RATE,
                1600);
        assertThat(leftOpen.getLast())
                .isEqualTo(new Emitted(new TranscriptEvent.Final(segment(16_000, 48_000)), 48_000));
    }

    @Test
    void anEndBeforeTheCutClosesThePartialAfterItWithAnEmptyFinal() {
        // the window limit cuts at 96000; the VAD's END (95900) comes later, after a Partial of the rest
        List<Emitted> events = feed(
                new LiveTranscription(
                        new ScriptedVadStream(List.of(start(16_000, 24_000), end(95_900, 105_600))),
                        new CountingDecoder(),
                        FIVE_S),
                8L * RATE,
                1600);
        assertThat(events.subList(events.size() - 2, events.size()))
                .containsExactly(
                        new Emitted(new TranscriptEvent.Partial(segment(96_000, 104_000)), 104_000),
                        new Emitted(
                                new TranscriptEvent.Final(new TranscriptSegment(96_000, 96_000, RATE, "", List.of())),
                                105_600));
        // without a Partial of the rest there is nothing to close
        List<Emitted> quiet = feed(
                new LiveTranscription(
                        new ScriptedVadStream(List.of(start(16_000, 24_000), end(95_900, 100_000))),
                        new CountingDecoder(),
                        FIVE_S),
                8L * RATE,
                1600);
        assertThat(quiet.getLast()).isEqualTo(new Emitted(new TranscriptEvent.Final(segment(16_000, 96_000)), 97_600));
    }

    @Test
    void aSegmentStartingInAudioAlreadyFinalStartsWhereTheFinalEnded() {
        // cut at 96000; the VAD then ends its segment at 90000 and starts the next at 94000 (a max-speech split)
        List<Emitted> events = feed(
                new LiveTranscription(
                        new ScriptedVadStream(List.of(
                                start(16_000, 24_000),
                                end(90_000, 110_000),
                                start(94_000, 110_000),
                                end(120_000, 128_000))),
                        new CountingDecoder(),
                        FIVE_S),
                9L * RATE,
                1600);
        assertThat(finals(events)).containsExactly(span(16_000, 96_000), span(96_000, 96_000), span(96_000, 120_000));
    }

    @Test
    void aStartIsHonouredAsFarBackAsTheProbabilitiesShowSpeech() {
        long at = 10L * RATE;
        // speech from 7 s on, its START held back for 3 s (probabilities between the thresholds can do that)
        List<Emitted> events = feed(
                new LiveTranscription(
                        new ScriptedVadStream(List.of(start(at - 3 * RATE, at), end(at + RATE, at + 2 * RATE))),
                        new CountingDecoder(),
                        OPTIONS),
                13L * RATE,
                1000);
        assertThat(finals(events)).containsExactly(span(at - 3 * RATE, at + RATE));
        // the same START into audio the probabilities called silence: the audio is gone, and that is a broken detector
        ScriptedVadStream liar = new ScriptedVadStream(List.of(start(at - 3 * RATE, at))) {
            @Override
            float probability(long chunk) {
                return chunk * CHUNK < at - 2 * RATE ? 0.02f : 0.9f;
            }
        };
        LiveTranscription t = new LiveTranscription(liar, new CountingDecoder(), OPTIONS);
        assertThatThrownBy(() -> feed(t, 13L * RATE, 1000))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("START at " + (at - 3 * RATE))
                .hasMessageContaining("before the audio kept");
    }

    @Test
    void inSilenceOnlyThePadBeforeTheAudioIsKept() {
        LiveTranscription t = new LiveTranscription(new ScriptedVadStream(List.of()), new CountingDecoder(), OPTIONS);
        feedSilence(t, 0, 60L * RATE);
        assertThat(t.bufferedSamples()).isLessThanOrEqualTo(PAD + CHUNK);
    }

    @Test
    void withMaxSpeechANoiseIsLetGoAfterTheStartLookback() {
        AsrOptions maxSpeech =
                OPTIONS.withVad(new dev.audioengine.model.task.VadOptions(0.5, Double.NaN, 250, 300, 200, 5));
        long lookback = LiveTranscription.startLookback(maxSpeech.vad(), CHUNK);
        assertThat(lookback).isEqualTo(5L * RATE + PAD + 2 * CHUNK);
        // a 0.1 s noise at 10 s: under max-speech the probabilities alone cannot rule out a segment from it
        ScriptedVadStream noise = new ScriptedVadStream(List.of()) {
            @Override
            float probability(long chunk) {
                return chunk * CHUNK >= 10L * RATE && chunk * CHUNK < 10L * RATE + 1600 ? 0.9f : 0.02f;
            }
        };
        LiveTranscription t = new LiveTranscription(noise, new CountingDecoder(), maxSpeech);
        feedSilence(t, 0, 60L * RATE);
        assertThat((long) t.bufferedSamples()).isBetween(lookback - 4096, lookback);
    }

    private static void feedSilence(LiveTranscription t, long from, long to) {
        for (long at = from; at < to; at += 4096)
            assertThat(t.accept(SyntheticAudio.block(at, 4096), 0, 4096)).isEmpty();
    }

    @Test
    void tenMinutesKeepAWindowAtMostAndInSilenceOnlyThePad() {
        List<ScriptedVadStream.Scripted> script = new ArrayList<>();
        List<SpeechSegment> speech = new ArrayList<>();
        Random rnd = new Random(3);
        for (long s = RATE; s < 560L * RATE; ) {
            long e = s + RATE / 4 + rnd.nextInt(30 * RATE);
            script.add(start(s, s + rnd.nextInt(START_DELAY)));
            script.add(end(e, e + rnd.nextInt(RATE)));
            speech.add(span(s, e));
            s = e + 2 * RATE + rnd.nextInt(20 * RATE);
        }
        LiveTranscription t = new LiveTranscription(new ScriptedVadStream(script), new CountingDecoder(), OPTIONS);
        int block = 4096, maxBuffered = 0, maxInSilence = 0;
        for (long at = 0; at < 600L * RATE; at += block) {
            t.accept(SyntheticAudio.block(at, block), 0, block);
            long now = at + block;
            maxBuffered = Math.max(maxBuffered, t.bufferedSamples());
            // silence: from the END's report (at most 1 s late) to the next segment's start
            boolean silence = speech.stream().noneMatch(s -> now >= s.startSample() && now < s.endSample() + RATE);
            if (silence) maxInSilence = Math.max(maxInSilence, t.bufferedSamples());
        }
        assertThat((long) maxBuffered).as("a window and a block at most").isLessThanOrEqualTo(20L * RATE + block);
        assertThat(maxInSilence)
                .as("the pad before the last chunk, and the chunk")
                .isLessThanOrEqualTo(PAD + CHUNK);
        t.finish();
        assertThat(t.bufferedSamples()).isZero();
    }

    @Test
    void randomScriptsKeepTheInvariants() {
        for (long seed = 0; seed < 250; seed++) {
            Random rnd = new Random(seed);
            AsrOptions o = new AsrOptions(OPTIONS.vad(), 1 + 10 * rnd.nextDouble(), 0.5, 6, 0.1 + rnd.nextDouble());
            long max = (long) Math.floor(o.maxWindowSeconds() * RATE);
            long total = RATE + rnd.nextInt(60 * RATE);
            List<SpeechSegment> speech = new ArrayList<>();
            for (long s = rnd.nextInt(RATE); s < total; ) {
                // long enough that Silero's rules would keep it: over min-speech in whole chunks
                long e = Math.min(total, s + 5025 + rnd.nextInt(rnd.nextBoolean() ? RATE : 25 * RATE));
                speech.add(span(s, e));
                s = e + rnd.nextInt(rnd.nextBoolean() ? 3000 : 3 * RATE);
            }
            // reports in order, each START a little after its sample, each END after its START
            long[] startAt = new long[speech.size()];
            for (int i = 0; i < speech.size(); i++) {
                startAt[i] = Math.max(
                        speech.get(i).startSample() + rnd.nextInt(START_DELAY + 1), i > 0 ? startAt[i - 1] : 0);
            }
            List<ScriptedVadStream.Scripted> script = new ArrayList<>();
            for (int i = 0; i < speech.size(); i++) {
                long e = speech.get(i).endSample();
                long endAt = Math.min(e + rnd.nextInt(RATE), i + 1 < speech.size() ? startAt[i + 1] : Long.MAX_VALUE);
                script.add(start(speech.get(i).startSample(), startAt[i]));
                script.add(end(e, Math.max(startAt[i], endAt)));
            }
            ScriptedVadStream vad = new ScriptedVadStream(script);
            CountingDecoder decoder = new CountingDecoder();
            int block = 1 + rnd.nextInt(rnd.nextBoolean() ? 2000 : 100_000);
            List<Emitted> events;
            try (LiveTranscription t = new LiveTranscription(vad, decoder, o)) {
                events = feed(t, total, block);
            }
            assertThat(vad.closed).isTrue();
            String what = "seed " + seed;
            List<SpeechSegment> finals = finals(events);
            for (int i = 0; i < finals.size(); i++) {
                SpeechSegment f = finals.get(i);
                assertThat(f.endSample() - f.startSample()).as(what).isBetween(0L, max);
                if (i > 0)
                    assertThat(f.startSample())
                            .as("%s: finals in order, not overlapping", what)
                            .isGreaterThanOrEqualTo(finals.get(i - 1).endSample());
                if (f.endSample() == f.startSample()) continue; // closes a Partial after a cut: where the cut was
                // a final starts on speech (a segment's start or a cut inside it) and ends at a segment's end or a cut
                assertThat(speech.stream()
                                .anyMatch(s -> f.startSample() >= s.startSample() && f.startSample() <= s.endSample()))
                        .as("%s: %s", what, f)
                        .isTrue();
                assertThat(speech.stream().anyMatch(s -> f.endSample() == s.endSample())
                                || f.endSample() - f.startSample() == max)
                        .as("%s: %s ends at an END or is a full window", what, f)
                        .isTrue();
            }
            for (SpeechSegment s : speech) {
                long covered = finals.stream()
                        .mapToLong(f -> Math.max(
                                0, Math.min(f.endSample(), s.endSample()) - Math.max(f.startSample(), s.startSample())))
                        .sum();
                assertThat(covered)
                        .as("%s: %s covered once by the finals", what, s)
                        .isEqualTo(s.endSample() - s.startSample());
            }
            // every Partial is of the segment open now and is followed by its Final before any other segment's events
            long open = -1;
            for (Emitted e : events) {
                long start = e.event.segment().startSample();
                if (open >= 0)
                    assertThat(start)
                            .as("%s: %s after a Partial from %d", what, e, open)
                            .isEqualTo(open);
                open = e.isFinal() ? -1 : start;
                if (!e.isFinal())
                    assertThat(e.event.segment().endSample()).as(what).isEqualTo(e.at);
            }
            assertThat(open)
                    .as("%s: the last Partial is closed by a Final", what)
                    .isEqualTo(-1);
            // partials of one segment come at least partial-every apart
            long partialEvery = Math.round(o.partialEverySeconds() * RATE);
            for (int i = 1; i < events.size(); i++) {
                Emitted a = events.get(i - 1), b = events.get(i);
                if (!a.isFinal() && !b.isFinal())
                    assertThat(b.at - a.at).as(what).isGreaterThanOrEqualTo(partialEvery);
            }
        }
    }

    @Test
    void brokenBoundariesAreRefusedNamingThem() {
        LiveTranscription endFirst =
                new LiveTranscription(new ScriptedVadStream(List.of(end(100, 200))), new CountingDecoder(), OPTIONS);
        assertThatThrownBy(() -> endFirst.accept(new float[300], 0, 300))
                .hasMessageContaining("END at 100 with no segment open");
        LiveTranscription twoStarts = new LiveTranscription(
                new ScriptedVadStream(List.of(start(100, 200), start(150, 200))), new CountingDecoder(), OPTIONS);
        assertThatThrownBy(() -> twoStarts.accept(new float[300], 0, 300))
                .hasMessageContaining("START at 150 while the segment from 100 is open");
        LiveTranscription ahead =
                new LiveTranscription(new ScriptedVadStream(List.of(start(500, 200))), new CountingDecoder(), OPTIONS);
        assertThatThrownBy(() -> ahead.accept(new float[300], 0, 300))
                .hasMessageContaining("beyond the 300 samples accepted");
    }

    @Test
    void theStaticFormOpensAStreamAtSixteenKilohertzAndTheEndIsFinal() {
        ScriptedVadStream vad = new ScriptedVadStream(List.of());
        FakeDetector detector = new FakeDetector(null, () -> vad);
        LiveTranscription t = LiveTranscription.open(detector, new CountingDecoder(), OPTIONS);
        assertThat(detector.streamRate).isEqualTo(RATE);
        assertThat(detector.streamOptions).isEqualTo(OPTIONS.vad());
        assertThat(t.accept(new float[1000], 0, 1000)).isEmpty();
        assertThat(t.finish()).isEmpty();
        assertThatThrownBy(() -> t.accept(new float[1], 0, 1)).hasMessageContaining("finished");
        t.close();
        assertThat(vad.closed).isTrue();
    }
}
