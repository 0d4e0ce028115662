package dev.audioengine.model.task;

import java.util.Arrays;

/**
 * One note a {@link NoteTranscriber} heard: when it starts and ends, its MIDI pitch and how loud the model thought it
 * was.
 *
 * @param startSeconds when the note starts, seconds from the start of the audio
 * @param endSeconds   when it ends, seconds from the start of the audio ({@code > startSeconds})
 * @param pitch        the MIDI note number (21 = A0 to 108 = C8 for a piano-range model)
 * @param amplitude    the mean of the model's note activation over the note's frames, in [0, 1]
 * @param startFrame   the model frame the note starts at
 * @param frames       the note's length in model frames ({@code >= 1})
 * @param pitchBends   one bend per frame of the note in contour bins (a third of a semitone each, positive is sharp),
 *                     or null when bends were not asked for; the array is the caller's to keep
 */
public record NoteEvent(
        double startSeconds,
        double endSeconds,
        int pitch,
        double amplitude,
        int startFrame,
        int frames,
        int[] pitchBends) {
    /**
     * Checks the fields.
     *
     * @throws IllegalArgumentException when the note does not end after it starts, the pitch is outside 0..127, the
     *     amplitude is not finite, or the frame count is below 1
     */
    public NoteEvent {
        if (!(endSeconds > startSeconds)) // also refuses NaN
        throw new IllegalArgumentException("a note must end after it starts: " + startSeconds + " .. " + endSeconds);
        if (pitch < 0 || pitch > 127) throw new IllegalArgumentException("MIDI pitch " + pitch + " is outside 0..127");
        if (!Double.isFinite(amplitude)) throw new IllegalArgumentException("amplitude " + amplitude);
        if (frames < 1) throw new IllegalArgumentException("a note of " + frames + " frames");
        pitchBends = pitchBends == null ? null : pitchBends.clone();
    }

    /**
     * The bends, a copy.
     *
     * @return one bend per frame in contour bins, or null when bends were not asked for
     */
    @Override
    public int[] pitchBends() {
        return pitchBends == null ? null : pitchBends.clone();
    }

    /**
     * The MIDI velocity Basic Pitch's JavaScript package writes for this amplitude: {@code floor(amplitude · 127)},
     * clamped to 1..127 (a note-on of velocity 0 would be a note-off).
     *
     * @return 1..127
     */
    public int velocity() {
        return Math.clamp((int) Math.floor(amplitude * 127), 1, 127);
    }

    /**
     * How long the note lasts.
     *
     * @return seconds
     */
    public double durationSeconds() {
        return endSeconds - startSeconds;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NoteEvent n
                && Double.compare(startSeconds, n.startSeconds) == 0
                && Double.compare(endSeconds, n.endSeconds) == 0
                && pitch == n.pitch
                && Double.compare(amplitude, n.amplitude) == 0
                && startFrame == n.startFrame
                && frames == n.frames
                && Arrays.equals(pitchBends, n.pitchBends);
    }

    @Override
    public int hashCode() {
        return Double.hashCode(startSeconds) * 31 + pitch * 7 + startFrame + Arrays.hashCode(pitchBends);
    }

    @Override
    public String toString() {
        return String.format(
                java.util.Locale.ROOT, "%.3f-%.3f pitch %d amplitude %.3f", startSeconds, endSeconds, pitch, amplitude);
    }
}
