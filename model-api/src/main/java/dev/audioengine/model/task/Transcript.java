package dev.audioengine.model.task;

import java.util.List;
import java.util.stream.Collectors;

/**
 * What a recognizer heard in a recording: its segments in order and their text joined by spaces.
 *
 * @param segments the decoded windows in time order, windows without speech text included; copied
 * @param audioSeconds the length of the audio that was read
 * @param decodedTokens tokens decoded over all windows (for speed reports)
 */
public record Transcript(List<TranscriptSegment> segments, double audioSeconds, long decodedTokens) {
    /**
     * Copies the segments.
     *
     * @param segments the decoded windows in time order
     * @param audioSeconds the length of the audio that was read
     * @param decodedTokens tokens decoded over all windows
     * @throws NullPointerException if segments is null or holds a null
     */
    public Transcript {
        segments = List.copyOf(segments);
    }

    /**
     * The segments' text joined by single spaces (empty when no speech was found).
     *
     * @return the text, segments with empty text skipped
     */
    public String text() {
        return segments.stream()
                .map(TranscriptSegment::text)
                .filter(t -> !t.isEmpty())
                .collect(Collectors.joining(" "));
    }
}
