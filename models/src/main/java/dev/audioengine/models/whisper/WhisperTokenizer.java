package dev.audioengine.models.whisper;

import dev.audioengine.model.ModelFormatException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Whisper's byte-level BPE vocabulary (GPT-2's, plus Whisper's special tokens), for turning token ids into text: each
 * ordinary token stands for a run of bytes; a text is the UTF-8 decoding of its tokens' bytes joined (malformed runs
 * become U+FFFD, as openai-whisper's {@code errors="replace"}). Read from a whisper.cpp file's vocabulary (raw bytes
 * per token) or from a {@code tokenizer.json} (GPT-2's byte-to-character mapping undone).
 * <p>
 * The special tokens sit after the text tokens at ids fixed by the vocabulary size, as whisper.cpp and openai-whisper
 * place them: 51864 (English-only: no language shift), 51865 (99 languages), 51866 (large-v3: 100 languages).
 * Timestamps follow {@link #timestampBegin()}: token {@code timestampBegin() + i} is i × 20 ms.
 */
public final class WhisperTokenizer {
    /** Language codes in Whisper's token order (the 100th, yue, only in large-v3's vocabulary). */
    public static final List<String> LANGUAGES = List.of(
            "en", "zh", "de", "es", "ru", "ko", "fr", "ja", "pt", "tr", "pl", "ca", "nl", "ar", "sv", "it", "id", "hi",
            "fi", "vi", "he", "uk", "el", "ms", "cs", "ro", "da", "hu", "ta", "no", "th", "ur", "hr", "bg", "lt", "la",
            "mi", "ml", "cy", "sk", "te", "fa", "lv", "bn", "sr", "az", "sl", "kn", "et", "mk", "br", "eu", "is", "hy",
            "ne", "mn", "bs", "kk", "sq", "sw", "gl", "mr", "pa", "si", "km", "sn", "yo", "so", "af", "oc", "ka", "be",
            "tg", "sd", "gu", "am", "yi", "lo", "uz", "fo", "ht", "ps", "tk", "nn", "mt", "sa", "lb", "my", "bo", "tl",
            "mg", "as", "tt", "haw", "ln", "ha", "ba", "jw", "su", "yue");

    /** Seconds per timestamp step. */
    public static final double TIMESTAMP_SECONDS = 0.02;

    private final byte[][] tokens; // the text tokens' bytes, by id; null past the vocabulary file's entries
    private final int size, eot, sot, translate, transcribe, solm, prev, nosp, noTimestamps, timestampBegin;
    private final int languages;
    private final int space; // the token for " " (suppressed as a first token), or -1

    /**
     * @param tokens the vocabulary's byte runs by id (a file may list fewer than {@code size}: the rest are specials)
     * @param size   the model's vocabulary size V
     */
    WhisperTokenizer(byte[][] tokens, int size) {
        if (size < 51864)
            throw new IllegalArgumentException("a Whisper vocabulary has at least 51864 tokens, not " + size);
        this.tokens = tokens;
        this.size = size;
        boolean multilingual = size >= 51865;
        languages = size - 51765 - (multilingual ? 1 : 0);
        int shift = multilingual ? 1 : 0, dt = multilingual ? languages - 98 : 0;
        eot = 50256 + shift;
        sot = 50257 + shift;
        translate = 50357 + dt;
        transcribe = 50358 + dt;
        solm = 50359 + dt;
        prev = 50360 + dt;
        nosp = 50361 + dt;
        noTimestamps = 50362 + dt;
        timestampBegin = 50363 + dt;
        int s = -1;
        for (int i = 0; i < Math.min(tokens.length, eot); i++) {
            if (tokens[i] != null && tokens[i].length == 1 && tokens[i][0] == ' ') {
                s = i;
                break;
            }
        }
        space = s;
    }

    /** From a whisper.cpp file's vocabulary (raw bytes per id) and the model's vocabulary size. */
    static WhisperTokenizer fromGgml(List<byte[]> vocabulary, int size) {
        return new WhisperTokenizer(vocabulary.toArray(byte[][]::new), size);
    }

    /** From a Hugging Face {@code tokenizer.json} (byte-level BPE: {@code model.vocab} and {@code added_tokens}). */
    static WhisperTokenizer fromTokenizerJson(Path file, int size) throws IOException {
        Object parsed = dev.audioengine.models.json.ModelJson.read(file, Files.readAllBytes(file));
        if (!(parsed instanceof Map<?, ?> root)
                || !(root.get("model") instanceof Map<?, ?> model)
                || !(model.get("vocab") instanceof Map<?, ?> vocab))
            throw new ModelFormatException(file + ": expected a tokenizer.json with a model.vocab object");
        byte[][] tokens = new byte[size][];
        int[] unicodeToByte = unicodeToByte();
        for (Map.Entry<?, ?> e : vocab.entrySet()) {
            int id = ((Number) e.getValue()).intValue();
            if (id < 0 || id >= size) continue; // specials past V are not the model's
            String text = (String) e.getKey();
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            for (int i = 0; i < text.length(); ) {
                int cp = text.codePointAt(i);
                i += Character.charCount(cp);
                if (cp >= unicodeToByte.length || unicodeToByte[cp] < 0)
                    throw new ModelFormatException(file + ": token " + id + " (\"" + text
                            + "\") has a character outside GPT-2's byte alphabet; not a byte-level BPE vocabulary");
                bytes.write(unicodeToByte[cp]);
            }
            tokens[id] = bytes.toByteArray();
        }
        return new WhisperTokenizer(tokens, size);
    }

    /**
     * GPT-2's bytes_to_unicode inverted: the printable bytes (! to ~, ¡ to ¬, ® to ÿ) stand for themselves, the other
     * 68 bytes for U+0100 onwards in byte order.
     */
    static int[] unicodeToByte() {
        int[] map = new int[256 + 68];
        java.util.Arrays.fill(map, -1);
        int n = 0;
        for (int b = 0; b < 256; b++) {
            boolean printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
            map[printable ? b : 256 + n++] = b;
        }
        return map;
    }

    /** The text of these tokens: specials (id ≥ EOT) skipped, the bytes of the rest joined and decoded as UTF-8. */
    public String decode(List<Integer> ids) {
        return new String(bytes(ids), StandardCharsets.UTF_8);
    }

    /**
     * whisper.cpp's own tokenizer ({@code whisper_tokenize}, what it runs on {@code --prompt}): the text's UTF-8 bytes
     * split into words by GPT-2's pattern with ASCII letter, digit and space classes (std::regex in the C locale),
     * then each word cut greedily into the longest byte runs the vocabulary has (a byte run the vocabulary lacks is
     * skipped, as whisper.cpp logs "unknown token" and skips it). This is not GPT-2's BPE merge order: the same text
     * may come out as other tokens than openai-whisper's; it is what whisper.cpp feeds, for ggml files and folders
     * alike.
     */
    public int[] encode(String text) {
        Map<String, Integer> ids = byteRuns();
        // bytes as ISO-8859-1 chars: Java's default (ASCII) classes then see non-ASCII bytes as C's isalpha does
        String s = new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
        java.util.regex.Matcher m = WORDS.matcher(s);
        java.util.List<Integer> out = new java.util.ArrayList<>();
        while (m.find()) {
            String word = m.group();
            for (int i = 0; i < word.length(); ) {
                int j = word.length();
                while (j > i && !ids.containsKey(word.substring(i, j))) j--;
                if (j == i) i++; // no token for this byte: whisper.cpp skips it too
                else {
                    out.add(ids.get(word.substring(i, j)));
                    i = j;
                }
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private static final java.util.regex.Pattern WORDS = java.util.regex.Pattern.compile(
            "'s|'t|'re|'ve|'m|'ll|'d| ?[a-zA-Z]+| ?[0-9]+| ?[^\\sa-zA-Z0-9]+|\\s+(?!\\S)|\\s+");

    private Map<String, Integer> byteRuns;

    /** Every listed token's bytes (as ISO-8859-1 chars) → its id, a later id winning as in whisper.cpp's map. */
    private synchronized Map<String, Integer> byteRuns() {
        if (byteRuns == null) {
            Map<String, Integer> m = new java.util.HashMap<>();
            for (int i = 0; i < tokens.length; i++)
                if (tokens[i] != null && tokens[i].length > 0)
                    m.put(new String(tokens[i], StandardCharsets.ISO_8859_1), i);
            byteRuns = m;
        }
        return byteRuns;
    }

    /** The raw bytes of the text tokens among {@code ids}. */
    byte[] bytes(List<Integer> ids) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int id : ids) {
            if (id < 0 || id >= size)
                throw new IllegalArgumentException("token " + id + " is outside 0.." + (size - 1));
            if (id >= eot || id >= tokens.length || tokens[id] == null) continue;
            out.writeBytes(tokens[id]);
        }
        return out.toByteArray();
    }

    public int size() {
        return size;
    }

    public boolean multilingual() {
        return size >= 51865;
    }

    /** Languages the vocabulary has tokens for (99, or 100 for large-v3). */
    public int languages() {
        return languages;
    }

    /** The token of language {@code code} ("en", "de", ...). */
    public int languageToken(String code) {
        int i = LANGUAGES.indexOf(code);
        if (i < 0 || i >= languages)
            throw new IllegalArgumentException("Whisper has no language \"" + code + "\"; it knows "
                    + String.join(", ", LANGUAGES.subList(0, languages)));
        return sot + 1 + i;
    }

    public int eot() {
        return eot;
    }

    public int sot() {
        return sot;
    }

    public int translate() {
        return translate;
    }

    public int transcribe() {
        return transcribe;
    }

    public int startOfLm() {
        return solm;
    }

    public int previous() {
        return prev;
    }

    public int noSpeech() {
        return nosp;
    }

    public int noTimestamps() {
        return noTimestamps;
    }

    /** The first timestamp token (0.00 s). */
    public int timestampBegin() {
        return timestampBegin;
    }

    /** The token of a lone space, or -1 when the vocabulary has none. */
    int space() {
        return space;
    }
}
