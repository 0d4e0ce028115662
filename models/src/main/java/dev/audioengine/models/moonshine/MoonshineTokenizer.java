package dev.audioengine.models.moonshine;

import dev.audioengine.model.ModelFormatException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Turns the token ids a Moonshine decoder emits into text. Moonshine uses the Llama 32k SentencePiece vocabulary;
 * it can be read from llama-tokenizer-js's {@code llama-tokenizer.js} (what moonshine-js decodes with) or from a
 * Hugging Face {@code tokenizer.json} (what the original checkpoints ship). Only decoding is provided.
 *
 * <p>Decoding follows llama-tokenizer-js's {@code decode()}: a token {@code <0xNN>} contributes the byte NN, any
 * other token its UTF-8 bytes; the bytes are decoded as UTF-8 with each invalid sequence replaced by U+FFFD (the
 * same maximal-subpart rule as the JS TextDecoder); every '▁' (U+2581) then becomes a space and one leading space
 * is removed. It differs from llama-tokenizer-js on purpose in three places:
 * <ul>
 *   <li>Special tokens ({@code <unk>}, {@code <s>}, {@code </s>}, and in a tokenizer.json every added token marked
 *       special) decode to nothing wherever they are; llama-tokenizer-js skips only a leading {@code <s>} and
 *       spells the others out.</li>
 *   <li>Ids at or beyond {@link #vocabularySize()} decode to nothing: Moonshine's output layer has 32768 rows
 *       for 32000 tokens, and a model that picks a padding row should give a transcript, not an exception.</li>
 *   <li>A byte-order mark at the start of the decoded bytes is kept as U+FEFF; TextDecoder drops it silently.</li>
 * </ul>
 * Hugging Face's own decoder differs only in how it replaces broken UTF-8 made of byte tokens and in not turning a
 * '▁' spelled in byte tokens into a space; neither happens with text a model meant to write.
 *
 * <p>Instances are immutable and safe to share between threads.
 */
public final class MoonshineTokenizer {
    /** The start-of-transcript token, the decoder's first input. */
    public static final int BOS = 1;
    /** The end-of-transcript token: the decoder stops when it emits it. */
    public static final int EOS = 2;

    private static final byte[] NOTHING = new byte[0];

    private final String[] tokens;
    /** What each id contributes to the byte stream: nothing for specials, one byte for {@code <0xNN>}, else UTF-8. */
    private final byte[][] bytes;

    /**
     * @param tokens  the token of each id, {@code tokens[id]}
     * @param special which ids decode to nothing
     */
    MoonshineTokenizer(String[] tokens, boolean[] special) {
        if (tokens.length != special.length)
            throw new IllegalArgumentException(tokens.length + " tokens but " + special.length + " special flags");
        this.tokens = tokens.clone();
        this.bytes = new byte[tokens.length][];
        for (int id = 0; id < tokens.length; id++) {
            String t = Objects.requireNonNull(tokens[id], () -> "no token for an id below the vocabulary size");
            int fallbackByte = byteToken(t);
            bytes[id] = special[id]
                    ? NOTHING
                    : fallbackByte >= 0 ? new byte[] {(byte) fallbackByte} : t.getBytes(StandardCharsets.UTF_8);
        }
    }

    /**
     * Reads the vocabulary from llama-tokenizer-js's {@code llama-tokenizer.js} (the {@code llama_vocab_base64}
     * literal: base64 of UTF-8 tokens, one a line, the line index being the id); ids 0-2 are the specials.
     *
     * @throws ModelFormatException when the file has no such literal or it does not hold such a vocabulary
     */
    public static MoonshineTokenizer fromLlamaTokenizerJs(Path file) throws IOException {
        return LlamaTokenizerJsVocabulary.read(file);
    }

    /**
     * Reads the vocabulary from a Hugging Face {@code tokenizer.json} of a BPE model with byte fallback:
     * {@code model.vocab} (token to id) and {@code added_tokens} (whose {@code special} flag says what to drop).
     *
     * @throws ModelFormatException when the file is not such a tokenizer
     */
    public static MoonshineTokenizer fromTokenizerJson(Path file) throws IOException {
        return TokenizerJsonVocabulary.read(file);
    }

    /** The number of tokens: ids from 0 to this, exclusive, have a token. */
    public int vocabularySize() {
        return tokens.length;
    }

    /** The token of {@code id} as the vocabulary spells it ("▁the", "&lt;0x0A&gt;", "&lt;s&gt;"). */
    public String token(int id) {
        if (id < 0 || id >= tokens.length) {
            throw new IndexOutOfBoundsException(
                    "token id " + id + " is outside the vocabulary (0 to " + (tokens.length - 1) + ")");
        }
        return tokens[id];
    }

    /** The text of {@code ids}; see the class comment for the rules. */
    public String decode(List<Integer> ids) {
        int[] array = new int[ids.size()];
        for (int i = 0; i < array.length; i++)
            array[i] = Objects.requireNonNull(ids.get(i), () -> "null token id in the list");
        return decode(array);
    }

    /** The text of {@code ids}; see the class comment for the rules. */
    public String decode(int... ids) {
        int length = 0;
        for (int i = 0; i < ids.length; i++) {
            int id = ids[i];
            if (id < 0)
                throw new IllegalArgumentException(
                        "token id " + id + " at position " + i + " is negative; token ids start at 0");
            if (id < bytes.length) length += bytes[id].length;
        }
        byte[] stream = new byte[length];
        int at = 0;
        for (int id : ids) {
            if (id >= bytes.length) continue;
            System.arraycopy(bytes[id], 0, stream, at, bytes[id].length);
            at += bytes[id].length;
        }
        String text = ReplacingUtf8Decoder.decode(stream, length).replace('\u2581', ' ');
        return text.startsWith(" ") ? text.substring(1) : text;
    }

    /** The byte of a byte-fallback token {@code <0xNN>} (two hex digits), or -1 for any other token. */
    static int byteToken(String token) {
        if (token.length() != 6 || !token.startsWith("<0x") || token.charAt(5) != '>') return -1;
        int hi = hexDigit(token.charAt(3)), lo = hexDigit(token.charAt(4));
        return hi < 0 || lo < 0 ? -1 : hi * 16 + lo;
    }

    /** ASCII only: Character.digit would also read other scripts' digits. */
    private static int hexDigit(char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        return -1;
    }
}
