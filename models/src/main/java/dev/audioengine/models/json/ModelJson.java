package dev.audioengine.models.json;

import dev.audioengine.model.ModelFormatException;
import dev.audioengine.weights.json.JsonFormatException;
import dev.audioengine.weights.json.StrictJson;
import java.nio.file.Path;

/**
 * Tokenizer and config files read with the engine's one strict JSON reader ({@link StrictJson}), its errors
 * phrased for a model file: the file, line and column. Objects are insertion-ordered Maps, arrays Lists,
 * integers that fit a long Longs, other numbers Doubles, JSON null Java null.
 */
public final class ModelJson {
    private ModelJson() {}

    /** Parses the whole of {@code bytes}, read from {@code file} (named in errors), as one JSON value. */
    public static Object read(Path file, byte[] bytes) throws ModelFormatException {
        try {
            return StrictJson.parse(bytes);
        } catch (JsonFormatException e) {
            throw new ModelFormatException(
                    file + ": invalid JSON at line " + e.line() + ", column " + e.column() + ": " + e.problem(), e);
        }
    }
}
