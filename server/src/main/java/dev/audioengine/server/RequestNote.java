package dev.audioengine.server;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a handler learnt about its request, for the request's log line: the model, the audio's length and how fast it
 * went, and anything else worth a word (parameters accepted without effect, audio warnings). One per request, in its
 * context; written by the request's own thread.
 */
final class RequestNote {
    private String model;
    private double audioSeconds = -1, modelSeconds;
    private final List<String> notes = new ArrayList<>();
    private boolean clientGone;

    void model(String id) { model = id; }

    void audio(double seconds, double workSeconds) {
        audioSeconds = seconds;
        modelSeconds = workSeconds;
    }

    void note(String text) { notes.add(text); }

    /** The client closed the connection before it was answered: logged and counted as 499, as nginx does. */
    void clientGone() { clientGone = true; }

    boolean isClientGone() { return clientGone; }

    /** " model=... audio=3.20s rtf=41.0 (note; note)", or "" when nothing was learnt. */
    String describe() {
        StringBuilder s = new StringBuilder();
        if (model != null) s.append(" model=").append(model);
        if (audioSeconds >= 0) {
            s.append(String.format(Locale.ROOT, " audio=%.2fs", audioSeconds));
            if (modelSeconds > 0) s.append(String.format(Locale.ROOT, " rtf=%.1f", audioSeconds / modelSeconds));
        }
        if (!notes.isEmpty()) s.append(" (").append(String.join("; ", notes)).append(')');
        return s.toString();
    }
}
