package dev.audioengine.models.asr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.model.task.AsrOptions;
import dev.audioengine.model.task.SpeechSegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Window planning: the merge and split rules on examples, and their invariants on random segment lists. */
class SpeechWindowsTest {
    private static final int RATE = 16_000;
    private static final AsrOptions OPTIONS =
            AsrOptions.DEFAULTS.withMaxWindowSeconds(10).withMergeGapSeconds(0.5); // merge gap 8000 samples
    private static final long MAX = 10 * RATE;

    private static SpeechSegment seg(long start, long end) {
        return new SpeechSegment(start, end, RATE);
    }

    @Test
    void segmentsCloserThanTheMergeGapShareAWindow() {
        assertThat(SpeechWindows.plan(List.of(seg(1000, 20_000), seg(27_999, 40_000)), OPTIONS))
                .containsExactly(seg(1000, 40_000));
    }

    @Test
    void aGapOfExactlyTheMergeGapSeparates() {
        assertThat(SpeechWindows.plan(List.of(seg(1000, 20_000), seg(28_000, 40_000)), OPTIONS))
                .containsExactly(seg(1000, 20_000), seg(28_000, 40_000));
    }

    @Test
    void aMergeStopsWhereTheWindowWouldPassTheMaximum() {
        assertThat(SpeechWindows.plan(List.of(seg(0, 100_000), seg(100_100, MAX)), OPTIONS))
                .containsExactly(seg(0, MAX));
        assertThat(SpeechWindows.plan(List.of(seg(0, 100_000), seg(100_100, MAX + 1), seg(MAX + 2, MAX + 50)), OPTIONS))
                .as(
                        "the second segment would make the window one sample too long; it starts a window of its own and the third joins it")
                .containsExactly(seg(0, 100_000), seg(100_100, MAX + 50));
    }

    @Test
    void aWindowThatGrowsTooLongIsCutAtItsLongestPauseNotBeforeTheNewSegment() {
        AsrOptions o = new AsrOptions(OPTIONS.vad(), 10, 2, 6, 0.5);
        // a sentence (0-5 s), a 1.2 s pause, a sentence with a 0.3 s pause inside (6.2-8 s and 8.3-12 s): cutting just
        // before the third segment would split the second sentence at its 0.3 s pause
        List<SpeechSegment> segments =
                List.of(seg(0, 5 * RATE), seg(6_2 * RATE / 10, 8 * RATE), seg(83 * RATE / 10, 12 * RATE));
        assertThat(SpeechWindows.plan(segments, o)).containsExactly(seg(0, 5 * RATE), seg(6_2 * RATE / 10, 12 * RATE));
        // the same, decided early by settleBefore: a window that no later segment can join whole settles whole once
        // the pause after it is at least its longest pause inside, and waits while a longer pause inside may be the cut
        SpeechWindows planner = new SpeechWindows(o, RATE, ChunkProbabilities.NONE);
        planner.add(seg(0, 4 * RATE));
        planner.add(seg(55 * RATE / 10, 98 * RATE / 10)); // a 1.5 s pause inside
        assertThat(planner.settleBefore(102 * RATE / 10))
                .as("too long for a later segment, but a 0.4 s pause so far is shorter than the 1.5 s inside")
                .isEmpty();
        assertThat(planner.add(seg(103 * RATE / 10, 11 * RATE))).containsExactly(seg(0, 4 * RATE));
        SpeechWindows early = new SpeechWindows(o, RATE, ChunkProbabilities.NONE);
        early.add(seg(0, 4 * RATE));
        early.add(seg(43 * RATE / 10, 9 * RATE)); // a 0.3 s pause inside
        assertThat(early.settleBefore(1005 * RATE / 100))
                .as("too long for a later segment and 1.05 s after it, more than the 0.3 s inside, under the merge gap")
                .containsExactly(seg(0, 9 * RATE));
        // equal pauses: the later cut, so the first window is as long as it may be
        List<SpeechSegment> even = List.of(seg(0, 3 * RATE), seg(4 * RATE, 7 * RATE), seg(8 * RATE, 11 * RATE));
        assertThat(SpeechWindows.plan(even, o)).containsExactly(seg(0, 7 * RATE), seg(8 * RATE, 11 * RATE));
    }

    @Test
    void aZeroMergeGapNeverMergesEvenTouchingSegments() {
        AsrOptions noMerge = new AsrOptions(OPTIONS.vad(), 10, 0, 6, 0.5);
        assertThat(SpeechWindows.plan(List.of(seg(0, 100), seg(100, 200)), noMerge))
                .containsExactly(seg(0, 100), seg(100, 200));
    }

    @Test
    void aLongSegmentIsSplitIntoTheFewestNearEqualParts() {
        List<SpeechSegment> w = SpeechWindows.plan(List.of(seg(500, 500 + 25 * RATE + 7)), OPTIONS);
        assertThat(w).hasSize(3);
        assertThat(w.getFirst().startSample()).isEqualTo(500);
        assertThat(w.getLast().endSample()).isEqualTo(500 + 25 * RATE + 7);
        long[] lengths =
                w.stream().mapToLong(s -> s.endSample() - s.startSample()).toArray();
        assertThat(Arrays.stream(lengths).max().getAsLong()
                        - Arrays.stream(lengths).min().getAsLong())
                .isLessThanOrEqualTo(1);
        assertThat(SpeechWindows.plan(List.of(seg(0, MAX)), OPTIONS))
                .as("exactly the maximum is not split")
                .containsExactly(seg(0, MAX));
        assertThat(SpeechWindows.plan(List.of(seg(0, MAX + 1)), OPTIONS)).hasSize(2);
    }

    @Test
    void aLongSegmentIsCutAtTheQuietestChunkNearTheMiddle() {
        float[] p = new float[15 * RATE / 512 + 1];
        Arrays.fill(p, 0.9f);
        int dip = (int) (0.4 * 15 * RATE / 512); // 40% in: within a quarter part of the middle
        p[dip] = 0.2f;
        p[dip + 3] = 0.3f;
        p[2] = 0.0f; // quieter, but far from the middle
        List<SpeechSegment> w = SpeechWindows.plan(List.of(seg(0, 15 * RATE)), OPTIONS, ChunkProbabilities.of(p, 512));
        assertThat(w).containsExactly(seg(0, dip * 512L + 256), seg(dip * 512L + 256, 15 * RATE));
    }

    @Test
    void aQuietChunkTooFarFromTheMiddleLeavesTheEvenCut() {
        float[] p = new float[15 * RATE / 512 + 1];
        Arrays.fill(p, 0.9f);
        p[(int) (0.2 * 15 * RATE / 512)] = 0.0f; // 20% in: a part would be 2 s over the quarter-part reach
        List<SpeechSegment> w = SpeechWindows.plan(List.of(seg(0, 15 * RATE)), OPTIONS, ChunkProbabilities.of(p, 512));
        // every chunk in reach is 0.9: the nearest to the even cut (7.5 s = 120000, the middle of chunk 234 is 120064)
        assertThat(w.getFirst().endSample()).isBetween(120_000L - 256, 120_000L + 256);
    }

    @Test
    void badSegmentsAreRefusedNamingThem() {
        assertThatThrownBy(() -> SpeechWindows.plan(List.of(seg(0, 100), seg(50, 200)), OPTIONS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[50, 200)")
                .hasMessageContaining("overlap");
        assertThatThrownBy(() -> SpeechWindows.plan(List.of(seg(300, 400), seg(0, 100)), OPTIONS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[0, 100)")
                .hasMessageContaining("order");
        assertThatThrownBy(() -> SpeechWindows.plan(List.of(seg(100, 100)), OPTIONS))
                .hasMessageContaining("empty");
        assertThatThrownBy(() -> SpeechWindows.plan(List.of(seg(0, 100), new SpeechSegment(200, 300, 8000)), OPTIONS))
                .hasMessageContaining("8000 Hz");
        SpeechWindows w = new SpeechWindows(OPTIONS, RATE, ChunkProbabilities.NONE);
        w.settleBefore(5000);
        assertThatThrownBy(() -> w.add(seg(4000, 6000))).hasMessageContaining("before sample 5000");
    }

    @Test
    void noSegmentsNoWindows() {
        assertThat(SpeechWindows.plan(List.of(), OPTIONS)).isEmpty();
    }

    @Test
    void randomSegmentListsKeepEveryInvariant() {
        for (long seed = 0; seed < 3000; seed++) {
            Random rnd = new Random(seed);
            AsrOptions o = randomOptions(rnd);
            List<SpeechSegment> segments = randomSegments(rnd, o);
            ChunkProbabilities p = rnd.nextBoolean() ? ChunkProbabilities.NONE : randomProbabilities(rnd, segments);
            List<SpeechSegment> windows = SpeechWindows.plan(segments, o, p);
            checkInvariants("seed " + seed, segments, windows, o);
        }
    }

    @Test
    void settlingEarlyGivesTheSameWindowsAsPlanningTheWholeList() {
        for (long seed = 0; seed < 3000; seed++) {
            Random rnd = new Random(seed);
            AsrOptions o = randomOptions(rnd);
            List<SpeechSegment> segments = randomSegments(rnd, o);
            SpeechWindows planner = new SpeechWindows(o, RATE, ChunkProbabilities.NONE);
            List<SpeechSegment> got = new ArrayList<>();
            for (int i = 0; i < segments.size(); i++) {
                got.addAll(planner.add(segments.get(i)));
                long end = segments.get(i).endSample();
                long nextStart = i + 1 < segments.size() ? segments.get(i + 1).startSample() : end + 10 * RATE;
                for (int k = rnd.nextInt(3);
                        k > 0;
                        k--) { // promises that hold: no segment starts before the next one does
                    end += (long) (rnd.nextDouble() * (nextStart - end));
                    got.addAll(planner.settleBefore(end));
                    if (planner.pendingStart() >= 0)
                        assertThat(planner.pendingStart())
                                .isLessThanOrEqualTo(segments.get(i).startSample());
                }
            }
            got.addAll(planner.finish());
            assertThat(got).as("seed %d", seed).isEqualTo(SpeechWindows.plan(segments, o));
        }
    }

    private static AsrOptions randomOptions(Random rnd) {
        double[] gaps = {0, 0.2, 0.5, 1.5};
        return new AsrOptions(
                AsrOptions.DEFAULTS.vad(),
                1 + rnd.nextInt(30) + (rnd.nextBoolean() ? 0 : rnd.nextDouble()),
                gaps[rnd.nextInt(gaps.length)],
                6,
                0.5);
    }

    /** Short, medium and overlong segments with gaps around the merge gap, touching ones included. */
    private static List<SpeechSegment> randomSegments(Random rnd, AsrOptions o) {
        long max = (long) (o.maxWindowSeconds() * RATE);
        long gap = (long) (o.mergeGapSeconds() * RATE);
        List<SpeechSegment> out = new ArrayList<>();
        long at = rnd.nextInt(3 * RATE);
        for (int n = rnd.nextInt(30); n > 0; n--) {
            long length = switch (rnd.nextInt(4)) {
                case 0 -> 1 + rnd.nextInt(RATE / 2);
                case 1 -> 1 + rnd.nextInt(3 * RATE);
                case 2 -> 1 + (long) (rnd.nextDouble() * max);
                default -> 1 + (long) (rnd.nextDouble() * 3 * max);
            };
            out.add(seg(at, at + length));
            at += length
                    + switch (rnd.nextInt(5)) {
                        case 0 -> 0;
                        case 1 -> gap;
                        case 2 -> Math.max(0, gap - 1);
                        default -> (long) (rnd.nextDouble() * 3 * Math.max(gap, RATE / 4));
                    };
        }
        return out;
    }

    private static ChunkProbabilities randomProbabilities(Random rnd, List<SpeechSegment> segments) {
        long end = segments.isEmpty() ? 0 : segments.getLast().endSample();
        float[] p = new float[(int) (end / 512) + 1];
        for (int i = 0; i < p.length; i++) p[i] = rnd.nextFloat();
        return ChunkProbabilities.of(p, 512);
    }

    static void checkInvariants(String what, List<SpeechSegment> segments, List<SpeechSegment> windows, AsrOptions o) {
        long max = (long) Math.floor(o.maxWindowSeconds() * RATE);
        double gap = o.mergeGapSeconds() * RATE;
        if (segments.isEmpty()) {
            assertThat(windows).as(what).isEmpty();
            return;
        }
        for (int i = 0; i < windows.size(); i++) {
            SpeechSegment w = windows.get(i);
            assertThat(w.endSample()).as("%s: window %s is not empty", what, w).isGreaterThan(w.startSample());
            assertThat(w.endSample() - w.startSample())
                    .as("%s: window %s is at most the maximum", what, w)
                    .isLessThanOrEqualTo(max);
            if (i > 0)
                assertThat(w.startSample())
                        .as("%s: windows in order, not overlapping", what)
                        .isGreaterThanOrEqualTo(windows.get(i - 1).endSample());
            assertThat(w.startSample())
                    .as(what)
                    .isGreaterThanOrEqualTo(segments.getFirst().startSample());
            assertThat(w.endSample())
                    .as(what)
                    .isLessThanOrEqualTo(segments.getLast().endSample());
            // a window's edges lie on speech (segment edges or cuts inside a segment), never in a gap
            assertThat(onSpeech(segments, w.startSample(), true))
                    .as("%s: %s starts on speech", what, w)
                    .isTrue();
            assertThat(onSpeech(segments, w.endSample(), false))
                    .as("%s: %s ends on speech", what, w)
                    .isTrue();
        }
        // every speech sample in exactly one window: walk both sorted lists
        for (SpeechSegment s : segments) {
            long covered = 0;
            for (SpeechSegment w : windows)
                covered += Math.max(
                        0, Math.min(w.endSample(), s.endSample()) - Math.max(w.startSample(), s.startSample()));
            assertThat(covered).as("%s: %s covered once", what, s).isEqualTo(s.endSample() - s.startSample());
            long parts = windows.stream()
                    .filter(w -> w.endSample() > s.startSample() && w.startSample() < s.endSample())
                    .count();
            boolean alone = windows.contains(s);
            if (s.endSample() - s.startSample() > max) {
                assertThat(parts)
                        .as("%s: %s in the fewest parts", what, s)
                        .isEqualTo(Math.ceilDiv(s.endSample() - s.startSample(), max));
            } else {
                assertThat(parts)
                        .as("%s: %s fits a window, so it is not split", what, s)
                        .isEqualTo(1);
            }
            if (s.endSample() - s.startSample() > max) assertThat(alone).isFalse();
        }
        // the merge rule, both ways: joined segments are close; neighbouring windows are apart for a reason (a long
        // pause, or together they would pass the limit: the cut went at the longest pause of a window that grew too
        // long)
        for (int k = 1; k < segments.size(); k++) {
            SpeechSegment prev = segments.get(k - 1), s = segments.get(k);
            SpeechSegment wPrev = windowOf(windows, prev.endSample() - 1), w = windowOf(windows, s.startSample());
            boolean prevSplit = prev.endSample() - prev.startSample() > max;
            if (wPrev == w) {
                assertThat(s.startSample() - prev.endSample())
                        .as("%s: %s and %s share a window over a short gap", what, prev, s)
                        .isLessThan((long) Math.ceil(gap));
            } else if (!prevSplit && s.endSample() - s.startSample() <= max) {
                boolean gapTooLong = s.startSample() - prev.endSample() >= gap;
                long lastEnd = segments.getLast().endSample();
                boolean tooLong = lastEnd - wPrev.startSample() > max; // some later segment made the window too long
                assertThat(gapTooLong || tooLong)
                        .as("%s: %s could have joined %s", what, s, wPrev)
                        .isTrue();
            }
        }
    }

    private static boolean onSpeech(List<SpeechSegment> segments, long sample, boolean isStart) {
        for (SpeechSegment s : segments) {
            if (isStart
                    ? sample >= s.startSample() && sample < s.endSample()
                    : sample > s.startSample() && sample <= s.endSample()) return true;
        }
        return false;
    }

    private static SpeechSegment windowOf(List<SpeechSegment> windows, long sample) {
        return windows.stream()
                .filter(w -> sample >= w.startSample() && sample < w.endSample())
                .findFirst()
                .orElseThrow();
    }
}
