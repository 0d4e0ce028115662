package dev.audioengine.models.moonshine;

import dev.audioengine.model.ModelFormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;

/**
 * Reads the vocabulary out of llama-tokenizer-js's {@code llama-tokenizer.js}: the string literal
 * {@code llama_vocab_base64 = "..."} holds base64 of UTF-8 text, one token a line, the line index being the id.
 * The file is only scanned for that literal, never run.
 */
final class LlamaTokenizerJsVocabulary {
    private static final String LITERAL = "llama_vocab_base64 = \"";
    /** Ids 0-2 of the Llama vocabulary; llama-tokenizer-js relies on these positions, and so does the decoder. */
    private static final List<String> SPECIALS = List.of("<unk>", "<s>", "</s>");

    private LlamaTokenizerJsVocabulary() {}

    static MoonshineTokenizer read(Path file) throws IOException {
        String source =
                Files.readString(file, StandardCharsets.ISO_8859_1); // the literal is ASCII; other bytes are irrelevant
        int start = source.indexOf(LITERAL);
        if (start < 0) {
            throw new ModelFormatException(
                    file + " has no " + LITERAL + "...\" literal; expected llama-tokenizer-js's llama-tokenizer.js"
                            + " (npm llama-tokenizer-js@1.2.2, package/llama-tokenizer.js)");
        }
        start += LITERAL.length();
        int end = source.indexOf('"', start);
        if (end < 0) throw new ModelFormatException(file + ": the llama_vocab_base64 literal is not closed by a '\"'");
        byte[] utf8;
        try {
            utf8 = Base64.getDecoder().decode(source.substring(start, end));
        } catch (IllegalArgumentException e) {
            throw new ModelFormatException(
                    file + ": the llama_vocab_base64 literal is not base64: " + e.getMessage(), e);
        }
        String text;
        try {
            text = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(utf8))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new ModelFormatException(file + ": the llama_vocab_base64 literal does not decode to UTF-8 text", e);
        }
        String[] tokens = text.split("\n", -1); // -1 keeps a trailing empty line, as JS's split does
        for (int id = 0; id < SPECIALS.size(); id++) {
            if (tokens.length <= id || !tokens[id].equals(SPECIALS.get(id))) {
                throw new ModelFormatException(
                        file + ": the vocabulary must start with " + SPECIALS + " (ids 0-2), but token " + id + " is "
                                + (tokens.length <= id ? "missing" : "\"" + tokens[id] + "\""));
            }
        }
        boolean[] special = new boolean[tokens.length];
        for (int id = 0; id < SPECIALS.size(); id++) special[id] = true;
        return new MoonshineTokenizer(tokens, special);
    }
}
