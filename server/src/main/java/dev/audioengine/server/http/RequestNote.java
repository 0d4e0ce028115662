package dev.audioengine.server.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a handler learnt about its request, for the request's log line: the model, the audio's length and how fast it
 * went, and anything else worth a word (parameters accepted without effect, audio warnings). One per request, in its
 * context; written by the request's own thread.
 */
public final class RequestNote {
    private String model;
    private double audioSeconds = -1, modelSeconds;
    private final List<String> notes = new ArrayList<>();
    private int unanswered;

    public void model(String id) {
        model = id;
    }

    public void audio(double seconds, double workSeconds) {
        audioSeconds = seconds;
        modelSeconds = workSeconds;
    }

    public void note(String text) {
        notes.add(text);
    }

    /**
     * The connection ended before an answer could be sent: {@code status} is what the log and the metrics count (499
     * for a client that went away, as nginx counts it; 408 for an upload the server ended because it stalled).
     */
    void unanswered(int status) {
        unanswered = status;
    }

    /** The status to count for a request that got no answer; 0 when it got one. */
    int unansweredStatus() {
        return unanswered;
    }

    /** " model=... audio=3.20s rtf=41.0 (note; note)", or "" when nothing was learnt. */
    String describe() {
        StringBuilder s = new StringBuilder();
        if (model != null) s.append(" model=").append(model);
        if (audioSeconds >= 0) {
            s.append(String.format(Locale.ROOT, " audio=%.2fs", audioSeconds));
            // audio seconds per model second: recognizers run at tens, a synthesizer on a small CPU below one
            if (modelSeconds > 0)
                s.append(String.format(
                        Locale.ROOT,
                        audioSeconds / modelSeconds < 1 ? " rtf=%.2f" : " rtf=%.1f",
                        audioSeconds / modelSeconds));
        }
        if (!notes.isEmpty()) s.append(" (").append(String.join("; ", notes)).append(')');
        return s.toString();
    }
}
