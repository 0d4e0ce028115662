package dev.audioengine.model.task;

/**
 * What a note transcription model outputs per frame, before notes are decoded from it (Basic Pitch's three
 * "posteriorgrams"). The arrays are the caller's to keep.
 *
 * @param contours        [frames][contour bins]: pitch salience at a finer resolution (Basic Pitch: 264 bins, 3 per
 *                        semitone from A0), each in [0, 1]
 * @param notes           [frames][pitches]: whether each pitch sounds (Basic Pitch: 88, A0 to C8), in [0, 1]
 * @param onsets          [frames][pitches]: whether each pitch starts, in [0, 1]
 * @param framesPerSecond the model's frame rate (Basic Pitch: 22050 / 256)
 */
public record NoteActivations(float[][] contours, float[][] notes, float[][] onsets, double framesPerSecond) {
    /**
     * Checks the shapes.
     *
     * @throws IllegalArgumentException when the three do not have the same number of frames, or notes and onsets
     *     differ in width
     */
    public NoteActivations {
        if (contours.length != notes.length || notes.length != onsets.length)
            throw new IllegalArgumentException("contours, notes and onsets have " + contours.length + ", "
                    + notes.length + " and " + onsets.length + " frames");
        if (notes.length > 0 && notes[0].length != onsets[0].length)
            throw new IllegalArgumentException("notes and onsets differ in width");
    }

    /**
     * Frames of output.
     *
     * @return the number of rows of each matrix
     */
    public int frames() {
        return notes.length;
    }
}
