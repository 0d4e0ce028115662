package dev.audioengine.server.openai;

/**
 * Turns one item's live text into OpenAI's append-only {@code delta} events. A live transcription re-decodes the open
 * segment every half second, and a later partial may change words an earlier one had (the end of a word that was cut
 * off, mostly); a delta cannot be taken back. So a word is sent only once two partials in a row agree on it (every
 * word up to it, the last of the two partials' shared words excluded while it may still grow), and the final text adds
 * whatever it extends that with. When the final text does revise a word already sent, the deltas joined differ from
 * the {@code completed} transcript, which is authoritative; {@link #revised()} says so (a client that shows deltas
 * replaces them with the completed transcript, as OpenAI's guide does).
 * <p>
 * Not thread-safe: one per item.
 */
public final class TranscriptDeltas {
    private String sent = ""; // the deltas joined so far
    private String previous; // the last partial's text
    private boolean revised;

    /** The delta a partial text makes sendable, or "" for none. */
    public String partial(String text) {
        String agreed = previous == null ? "" : agreedWords(previous, text);
        previous = text;
        return extend(agreed);
    }

    /** The last delta for the item's final text ("" for none); the text is then the completed transcript. */
    public String fin(String text) {
        if (!text.startsWith(sent)) {
            revised = true;
            return "";
        }
        return extend(text);
    }

    /** Whether the final text changed something a delta had already said. */
    public boolean revised() {
        return revised;
    }

    /** The deltas joined so far. */
    public String sent() {
        return sent;
    }

    private String extend(String stable) {
        if (stable.length() <= sent.length() || !stable.startsWith(sent)) return "";
        String delta = stable.substring(sent.length());
        sent = stable;
        return delta;
    }

    /**
     * The longest run of whole words both texts start with, where a word counts as whole only if both texts go on past
     * it (with a space): the last word of a partial may be cut off mid-word.
     */
    static String agreedWords(String a, String b) {
        int n = Math.min(a.length(), b.length()), end = 0;
        for (int i = 0; i < n && a.charAt(i) == b.charAt(i); i++) if (a.charAt(i) == ' ') end = i;
        return a.substring(0, end);
    }
}
