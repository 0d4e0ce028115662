package dev.audioengine.models.moonshine;

import dev.audioengine.model.ModelFormatException;
import dev.audioengine.models.json.ModelJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Reads the vocabulary out of a Hugging Face {@code tokenizer.json} of a Llama-style BPE model with byte fallback:
 * {@code model.vocab} maps each token to its id, {@code added_tokens} lists tokens (specials among them) that may
 * repeat vocabulary entries or add ids past them. The merges and the pre-tokenizer only matter for encoding and
 * are not read; the decoder section is not read either, as the decoding rules are Llama's (see
 * {@link MoonshineTokenizer}), which the byte-fallback check stands in for.
 */
final class TokenizerJsonVocabulary {
    private TokenizerJsonVocabulary() {}

    static MoonshineTokenizer read(Path file) throws IOException {
        if (!(ModelJson.read(file, Files.readAllBytes(file)) instanceof Map<?, ?> root)) {
            throw new ModelFormatException(file + ": expected a tokenizer.json object at the top level");
        }
        Map<?, ?> model = member(file, root, "model", Map.class, "");
        String type = member(file, model, "type", String.class, "model.");
        if (!type.equals("BPE")) {
            throw new ModelFormatException(file + ": model.type is \"" + type
                    + "\"; only a BPE tokenizer (Llama's SentencePiece vocabulary) is supported");
        }
        if (!Boolean.TRUE.equals(model.get("byte_fallback"))) {
            throw new ModelFormatException(
                    file + ": model.byte_fallback is not true; expected a Llama-style tokenizer whose <0xNN> tokens"
                            + " stand for bytes (a byte-level BPE such as GPT-2's needs another decoder)");
        }
        Map<?, ?> vocab = member(file, model, "vocab", Map.class, "model.");

        int size = 0;
        for (Map.Entry<?, ?> e : vocab.entrySet())
            size = Math.max(size, id(file, e.getValue(), "model.vocab[\"" + e.getKey() + "\"]") + 1);
        List<?> added =
                root.get("added_tokens") == null ? List.of() : member(file, root, "added_tokens", List.class, "");
        for (int i = 0; i < added.size(); i++)
            size = Math.max(
                    size, id(file, addedMember(file, added, i, "id", Object.class), "added_tokens[" + i + "].id") + 1);
        if (size
                > vocab.size() + added.size()) { // checked before allocating: a stray huge id must not exhaust the heap
            throw new ModelFormatException(file + ": the largest token id is " + (size - 1) + ", but there are only "
                    + (vocab.size() + added.size()) + " tokens; expected ids 0 to N-1 without gaps");
        }

        String[] tokens = new String[size];
        boolean[] special = new boolean[size];
        for (Map.Entry<?, ?> e : vocab.entrySet()) {
            int id = ((Long) e.getValue()).intValue();
            if (tokens[id] != null) {
                throw new ModelFormatException(file + ": model.vocab gives id " + id + " to both \"" + tokens[id]
                        + "\" and \"" + e.getKey() + "\"");
            }
            tokens[id] = (String) e.getKey();
        }
        for (int i = 0; i < added.size(); i++) {
            int id = ((Long) addedMember(file, added, i, "id", Object.class)).intValue();
            String content = addedMember(file, added, i, "content", String.class);
            Object flag = ((Map<?, ?>) added.get(i)).get("special");
            if (flag != null && !(flag instanceof Boolean))
                throw new ModelFormatException(file + ": added_tokens[" + i + "].special must be true or false");
            if (tokens[id] != null && !tokens[id].equals(content)) {
                throw new ModelFormatException(file + ": added_tokens[" + i + "] gives id " + id + " to \"" + content
                        + "\", but model.vocab has \"" + tokens[id] + "\" there");
            }
            tokens[id] = content;
            special[id] = Boolean.TRUE.equals(flag);
        }
        for (int id = 0; id < size; id++) {
            if (tokens[id] == null) {
                throw new ModelFormatException(
                        file + ": no token has id " + id + "; expected ids 0 to " + (size - 1) + " without gaps");
            }
        }
        return new MoonshineTokenizer(tokens, special);
    }

    private static <T> T member(Path file, Map<?, ?> object, String key, Class<T> type, String path)
            throws ModelFormatException {
        Object value = object.get(key);
        if (!type.isInstance(value)) {
            throw new ModelFormatException(file + ": expected " + path + key + " to be " + kind(type) + ", found "
                    + (value == null ? "none" : kind(value.getClass())));
        }
        return type.cast(value);
    }

    private static <T> T addedMember(Path file, List<?> added, int index, String key, Class<T> type)
            throws ModelFormatException {
        if (!(added.get(index) instanceof Map<?, ?> entry))
            throw new ModelFormatException(file + ": added_tokens[" + index + "] is not an object");
        return member(file, entry, key, type, "added_tokens[" + index + "].");
    }

    private static int id(Path file, Object value, String where) throws ModelFormatException {
        if (!(value instanceof Long id) || id < 0 || id >= Integer.MAX_VALUE) {
            throw new ModelFormatException(
                    file + ": " + where + " must be a token id (a whole number from 0), found " + value);
        }
        return id.intValue();
    }

    private static String kind(Class<?> type) {
        if (Map.class.isAssignableFrom(type)) return "an object";
        if (List.class.isAssignableFrom(type)) return "an array";
        if (type == String.class) return "a string";
        if (type == Boolean.class) return "true or false";
        if (Number.class.isAssignableFrom(type)) return "a number";
        return type.getSimpleName();
    }
}
