package dev.audioengine.models.basicpitch;

import dev.audioengine.model.task.NoteEvent;
import dev.audioengine.model.task.NoteOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * Basic Pitch's note decoding as its JavaScript package (toMidi.ts, @spotify/basic-pitch 1.0.1) does it, step for step
 * and in double precision like JavaScript's numbers, so the notes are the package's own on the same activations:
 * {@code outputToNotesPoly} (frequency limits, inferred onsets, peak picking, notes grown from onsets with an energy
 * tolerance, then the "melodia trick" on the energy left), {@code addPitchBendsToNoteEvents} and
 * {@code noteFramesToTime}. The package's quirks are kept on purpose: ties in an argmax go to the last index within a
 * row and the first row, {@code Math.max} spreads NaN (a clip with no rising note energy rescales by 0 / 0), frequency
 * limits truncate the fractional MIDI index.
 */
final class NoteDecoding {
    static final int MIDI_OFFSET = 21, MAX_FREQ_IDX = 87, CONTOUR_BINS_PER_SEMITONE = 3, CONTOUR_BINS = 264;
    static final int ANNOT_N_FRAMES = 86 * 2; // ANNOTATIONS_FPS (floor(22050 / 256)) × 2 s
    /** The package's WINDOW_OFFSET: the drift of 2 s windows hopped by 43844 − 7680 samples, plus its magic 0.0018. */
    static final double WINDOW_OFFSET = (256.0 / 22050) * (ANNOT_N_FRAMES - (22050.0 * 2 - 256) / 256) + 0.0018;

    private NoteDecoding() {}

    /** A note in frames before times are attached (the package's NoteEvent). */
    record FrameNote(int startFrame, int durationFrames, int pitchMidi, double amplitude, int[] pitchBends) {}

    static double modelFrameToTime(int frame) {
        return (frame * 256.0) / 22050 - WINDOW_OFFSET * Math.floor(frame / (double) ANNOT_N_FRAMES);
    }

    static double hzToMidi(double hz) {
        return 12 * (log2(hz) - log2(440.0)) + 69;
    }

    static double midiToHz(double midi) {
        return 440.0 * Math.pow(2.0, (midi - 69.0) / 12.0);
    }

    private static double log2(double x) {
        // JavaScript's Math.log2 is exact at powers of two; log(x)/log(2) is not always, so take the exponent apart
        int e = Math.getExponent(x);
        double m = x / Math.scalb(1.0, e);
        return m == 1.0 ? e : e + Math.log(m) / Math.log(2);
    }

    /** Everything: the notes of {@code options} with times, as the package's three functions chained. */
    static List<NoteEvent> decode(float[][] contours, float[][] frames, float[][] onsets, NoteOptions o) {
        List<FrameNote> poly = outputToNotesPoly(
                toDouble(frames),
                toDouble(onsets),
                o.onsetThreshold(),
                o.frameThreshold(),
                o.minNoteFrames(),
                o.inferOnsets(),
                o.maxFrequency() > 0 ? o.maxFrequency() : null,
                o.minFrequency() > 0 ? o.minFrequency() : null,
                o.melodiaTrick(),
                o.energyTolerance());
        if (o.pitchBends()) poly = addPitchBends(toDouble(contours), poly, 25);
        List<NoteEvent> out = new ArrayList<>(poly.size());
        for (FrameNote n : poly) {
            double start = modelFrameToTime(n.startFrame());
            double duration = modelFrameToTime(n.startFrame() + n.durationFrames()) - start;
            out.add(new NoteEvent(
                    start,
                    start + duration,
                    n.pitchMidi(),
                    n.amplitude(),
                    n.startFrame(),
                    n.durationFrames(),
                    n.pitchBends()));
        }
        return out;
    }

    static double[][] toDouble(float[][] a) {
        double[][] d = new double[a.length][];
        for (int i = 0; i < a.length; i++) {
            d[i] = new double[a[i].length];
            for (int j = 0; j < a[i].length; j++) d[i][j] = a[i][j];
        }
        return d;
    }

    /** JavaScript's argMax of the package: ties go to the last index; -1 for an empty row. */
    static int argMax(double[] row) {
        int max = -1;
        for (int i = 0; i < row.length; i++) if (!(max >= 0 && row[max] > row[i])) max = i;
        return max;
    }

    /** The package's globalMax: Math.max over everything, starting at 0. */
    static double globalMax(double[][] a) {
        double m = 0;
        for (double[] row : a) for (double v : row) m = Math.max(m, v);
        return m;
    }

    static double[][] inferredOnsets(double[][] onsets, double[][] frames, int nDiff) {
        int t = frames.length, f = frames[0].length;
        double[][] diff = new double[t][f];
        for (int r = 0; r < t; r++)
            for (int c = 0; c < f; c++) {
                double m = Double.NaN;
                for (int n = 1; n <= nDiff; n++) {
                    double prev = r - n >= 0 ? frames[r - n][c] : 0;
                    double d = frames[r][c] - prev;
                    m = n == 1 ? d : Math.min(m, d);
                }
                diff[r][c] = Math.max(m, 0);
            }
        for (int r = 0; r < Math.min(nDiff, t); r++) java.util.Arrays.fill(diff[r], 0);
        double onsetMax = globalMax(onsets), diffMax = globalMax(diff);
        double[][] out = new double[t][f];
        for (int r = 0; r < t; r++)
            for (int c = 0; c < f; c++) out[r][c] = Math.max(onsets[r][c], (onsetMax * diff[r][c]) / diffMax);
        return out;
    }

    /** outputToNotesPoly; frames and onsets are modified in place as the package does (frequency limits). */
    static List<FrameNote> outputToNotesPoly(
            double[][] frames,
            double[][] onsets,
            double onsetThresh,
            double frameThresh,
            int minNoteLen,
            boolean inferOnsets,
            Double maxFreq,
            Double minFreq,
            boolean melodiaTrick,
            int energyTolerance) {
        int nFrames = frames.length;
        List<FrameNote> notes = new ArrayList<>();
        if (nFrames == 0) return notes;
        int width = frames[0].length;
        if (maxFreq != null && maxFreq != 0) {
            int from = jsIndex(hzToMidi(maxFreq) - MIDI_OFFSET, width);
            for (double[] r : onsets) java.util.Arrays.fill(r, from, width, 0);
            for (double[] r : frames) java.util.Arrays.fill(r, from, width, 0);
        }
        if (minFreq != null && minFreq != 0) {
            int to = jsIndex(hzToMidi(minFreq) - MIDI_OFFSET, width);
            for (double[] r : onsets) java.util.Arrays.fill(r, 0, to, 0);
            for (double[] r : frames) java.util.Arrays.fill(r, 0, to, 0);
        }
        double[][] inferred = inferOnsets ? inferredOnsets(onsets, frames, 2) : onsets;

        // argRelMax along time (order 1, clipped edges), then where > onsetThresh in row-major order, reversed
        List<int[]> starts = new ArrayList<>();
        for (int r = 0; r < nFrames; r++)
            for (int c = 0; c < width; c++) {
                double v = inferred[r][c];
                boolean peak = true;
                for (int q = Math.max(0, r - 1); peak && q <= Math.min(nFrames - 1, r + 1); q++)
                    if (q != r) peak = v > inferred[q][c];
                if (peak && v > onsetThresh) starts.add(new int[] {r, c});
            }
        double[][] remaining = new double[nFrames][];
        for (int r = 0; r < nFrames; r++) remaining[r] = frames[r].clone();

        for (int s = starts.size() - 1; s >= 0; s--) {
            int start = starts.get(s)[0], freq = starts.get(s)[1];
            if (start >= nFrames - 1) continue;
            int i = start + 1, k = 0;
            while (i < nFrames - 1 && k < energyTolerance) {
                if (remaining[i][freq] < frameThresh) k++;
                else k = 0;
                i++;
            }
            i -= k;
            if (i - start <= minNoteLen) continue;
            for (int j = start; j < i; j++) {
                remaining[j][freq] = 0;
                if (freq < MAX_FREQ_IDX) remaining[j][freq + 1] = 0;
                if (freq > 0) remaining[j][freq - 1] = 0;
            }
            double sum = 0;
            for (int j = start; j < i; j++) sum += frames[j][freq];
            notes.add(new FrameNote(start, i - start, freq + MIDI_OFFSET, sum / (i - start), null));
        }

        if (melodiaTrick) {
            while (globalMax(remaining) > frameThresh) {
                int iMid = 0, freq = 0;
                for (int r = 0; r < nFrames; r++) {
                    int c = argMax(remaining[r]);
                    if (remaining[r][c] > remaining[iMid][freq]) {
                        iMid = r;
                        freq = c;
                    }
                }
                remaining[iMid][freq] = 0;
                int i = iMid + 1, k = 0;
                while (i < nFrames - 1 && k < energyTolerance) {
                    if (remaining[i][freq] < frameThresh) k++;
                    else k = 0;
                    clear(remaining[i], freq);
                    i++;
                }
                int iEnd = i - 1 - k;
                i = iMid - 1;
                k = 0;
                while (i > 0 && k < energyTolerance) {
                    if (remaining[i][freq] < frameThresh) k++;
                    else k = 0;
                    clear(remaining[i], freq);
                    i--;
                }
                int iStart = i + 1 + k;
                if (iStart < 0) throw new IllegalStateException("iStart is not positive! value: " + iStart);
                if (iEnd >= nFrames)
                    throw new IllegalStateException("iEnd is past end of times: " + iEnd + ", " + nFrames);
                double sum = 0;
                for (int j = iStart; j < iEnd; j++) sum += frames[j][freq];
                if (iEnd - iStart <= minNoteLen) continue;
                notes.add(new FrameNote(iStart, iEnd - iStart, freq + MIDI_OFFSET, sum / (iEnd - iStart), null));
            }
        }
        return notes;
    }

    private static void clear(double[] row, int freq) {
        row[freq] = 0;
        if (freq < MAX_FREQ_IDX) row[freq + 1] = 0;
        if (freq > 0) row[freq - 1] = 0;
    }

    /** Array.prototype.fill's start/end argument: truncated toward zero, negative from the end, clamped. */
    private static int jsIndex(double x, int length) {
        double t = x < 0 ? Math.ceil(x) : Math.floor(x);
        if (t < 0) return (int) Math.max(0, length + t);
        return (int) Math.min(t, length);
    }

    /** addPitchBendsToNoteEvents: per frame, the contour bin of the Gaussian-weighted peak near the note's pitch. */
    static List<FrameNote> addPitchBends(double[][] contours, List<FrameNote> notes, int nBinsTolerance) {
        int windowLength = nBinsTolerance * 2 + 1;
        double[] gaussian = new double[windowLength];
        for (int n = 0; n < windowLength; n++)
            gaussian[n] = Math.exp((-1 * Math.pow(n - (windowLength - 1) / 2.0, 2)) / (2 * Math.pow(5, 2)));
        List<FrameNote> out = new ArrayList<>(notes.size());
        for (FrameNote note : notes) {
            int freqIdx = (int)
                    Math.floor(jsRound(12.0 * CONTOUR_BINS_PER_SEMITONE * log2(midiToHz(note.pitchMidi()) / 27.5)));
            int freqStart = Math.max(freqIdx - nBinsTolerance, 0);
            int freqEnd = Math.min(CONTOUR_BINS, freqIdx + nBinsTolerance + 1);
            int gStart = Math.max(0, nBinsTolerance - freqIdx);
            int gEnd = windowLength - Math.max(0, freqIdx - (CONTOUR_BINS - nBinsTolerance - 1));
            int shift = nBinsTolerance - Math.max(0, nBinsTolerance - freqIdx);
            int end = Math.min(contours.length, note.startFrame() + note.durationFrames());
            int[] bends = new int[Math.max(0, end - note.startFrame())];
            for (int f = note.startFrame(); f < end; f++) {
                int width = Math.min(freqEnd - freqStart, gEnd - gStart);
                double[] row = new double[Math.max(0, freqEnd - freqStart)];
                for (int c = 0; c < row.length; c++)
                    row[c] = contours[f][freqStart + c] * (c < width ? gaussian[gStart + c] : Double.NaN);
                bends[f - note.startFrame()] = argMax(row) - shift;
            }
            out.add(new FrameNote(note.startFrame(), note.durationFrames(), note.pitchMidi(), note.amplitude(), bends));
        }
        return out;
    }

    /** JavaScript's Math.round: halves toward +infinity. */
    private static double jsRound(double x) {
        return Math.floor(x + 0.5);
    }
}
