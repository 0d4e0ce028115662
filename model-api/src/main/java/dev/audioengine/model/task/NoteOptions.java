package dev.audioengine.model.task;

/**
 * How a {@link NoteTranscriber} turns its activations into notes; the defaults are those of Basic Pitch's
 * {@code outputToNotesPoly} (its JavaScript package's parameter defaults).
 *
 * @param onsetThreshold  an onset activation above this (at a local peak in time) starts a note, in (0, 1)
 * @param frameThreshold  a note lasts while its note activation stays at or above this (allowing
 *                        {@code energyTolerance} frames below), in (0, 1)
 * @param minNoteFrames   notes of this many model frames or fewer are dropped, {@code >= 0}
 * @param inferOnsets     also start notes where the note activation jumps (Basic Pitch's inferred onsets)
 * @param melodiaTrick    after the onset pass, also take notes from the strongest remaining activations (Basic Pitch's
 *                        "melodia trick")
 * @param minFrequency    lowest pitch kept, in Hz, or 0 for no limit
 * @param maxFrequency    highest pitch kept, in Hz, or 0 for no limit
 * @param energyTolerance frames a note's activation may stay below the frame threshold before it ends, {@code >= 1}
 * @param pitchBends      also estimate a bend per frame of each note from the pitch contour
 */
public record NoteOptions(
        double onsetThreshold,
        double frameThreshold,
        int minNoteFrames,
        boolean inferOnsets,
        boolean melodiaTrick,
        double minFrequency,
        double maxFrequency,
        int energyTolerance,
        boolean pitchBends) {
    /** Basic Pitch's defaults: onset 0.5, frame 0.3, 5 frames, inferred onsets, melodia trick, no bends. */
    public static final NoteOptions DEFAULTS = new NoteOptions(0.5, 0.3, 5, true, true, 0, 0, 11, false);

    /**
     * Checks the values.
     *
     * @throws IllegalArgumentException when a threshold is outside (0, 1), a count is negative or a frequency is
     *     negative or not finite
     */
    public NoteOptions {
        if (!(onsetThreshold > 0 && onsetThreshold < 1))
            throw new IllegalArgumentException("onset threshold " + onsetThreshold + " is outside (0, 1)");
        if (!(frameThreshold > 0 && frameThreshold < 1))
            throw new IllegalArgumentException("frame threshold " + frameThreshold + " is outside (0, 1)");
        if (minNoteFrames < 0) throw new IllegalArgumentException("minimum note length " + minNoteFrames + " frames");
        if (energyTolerance < 1) throw new IllegalArgumentException("energy tolerance " + energyTolerance + " frames");
        if (!(minFrequency >= 0 && Double.isFinite(minFrequency))
                || !(maxFrequency >= 0 && Double.isFinite(maxFrequency)))
            throw new IllegalArgumentException("frequency limits " + minFrequency + ", " + maxFrequency + " Hz");
    }

    /**
     * These options with other thresholds.
     *
     * @param onset the onset threshold, in (0, 1)
     * @param frame the frame threshold, in (0, 1)
     * @return a copy with those thresholds
     */
    public NoteOptions withThresholds(double onset, double frame) {
        return new NoteOptions(
                onset,
                frame,
                minNoteFrames,
                inferOnsets,
                melodiaTrick,
                minFrequency,
                maxFrequency,
                energyTolerance,
                pitchBends);
    }

    /**
     * These options with another minimum note length.
     *
     * @param frames model frames, {@code >= 0}
     * @return a copy with that minimum
     */
    public NoteOptions withMinNoteFrames(int frames) {
        return new NoteOptions(
                onsetThreshold,
                frameThreshold,
                frames,
                inferOnsets,
                melodiaTrick,
                minFrequency,
                maxFrequency,
                energyTolerance,
                pitchBends);
    }

    /**
     * These options with the melodia trick on or off.
     *
     * @param on whether to take notes from the remaining activations too
     * @return a copy
     */
    public NoteOptions withMelodiaTrick(boolean on) {
        return new NoteOptions(
                onsetThreshold,
                frameThreshold,
                minNoteFrames,
                inferOnsets,
                on,
                minFrequency,
                maxFrequency,
                energyTolerance,
                pitchBends);
    }

    /**
     * These options with pitch bends on or off.
     *
     * @param on whether to estimate bends
     * @return a copy
     */
    public NoteOptions withPitchBends(boolean on) {
        return new NoteOptions(
                onsetThreshold,
                frameThreshold,
                minNoteFrames,
                inferOnsets,
                melodiaTrick,
                minFrequency,
                maxFrequency,
                energyTolerance,
                on);
    }

    /**
     * These options with frequency limits.
     *
     * @param minHz lowest pitch kept in Hz, 0 for none
     * @param maxHz highest pitch kept in Hz, 0 for none
     * @return a copy
     */
    public NoteOptions withFrequencyRange(double minHz, double maxHz) {
        return new NoteOptions(
                onsetThreshold,
                frameThreshold,
                minNoteFrames,
                inferOnsets,
                melodiaTrick,
                minHz,
                maxHz,
                energyTolerance,
                pitchBends);
    }
}
