package dev.audioengine.models.whisper;

import dev.audioengine.models.json.ModelJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * whisper-cli's full JSON (-ojf) as the parity tests read it. whisper.cpp writes each token's raw bytes into its JSON
 * strings: a token may end mid-character, and a random model's tokens may be control bytes (GPT-2 has tokens for
 * them), which JSON forbids unescaped. So the text is made valid UTF-8 and control bytes are blanked before parsing;
 * the tests read only ids, probabilities and offsets. Every parity test reads it here: one of them missed the control
 * bytes and failed on a seed whose tokens held one.
 */
final class WhisperCliJson {
    private WhisperCliJson() {}

    static Map<?, ?> read(Path outJson) throws IOException {
        byte[] raw = new String(Files.readAllBytes(outJson), StandardCharsets.UTF_8)
                .replaceAll("[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f]", " ")
                .getBytes(StandardCharsets.UTF_8);
        return (Map<?, ?>) ModelJson.read(outJson, raw);
    }
}
