package dev.audioengine.models.silero;

import dev.audioengine.models.ModelFile;
import dev.audioengine.models.ModelStore;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * What {@code --model} may name for silero_vad: a store name (silero_vad = v6, silero_vad_v5,
 * silero_vad_v6), pulled into the cache on first use, or the path of a v5 or v6 ONNX file,
 * accepted only with one of their sha256 values.
 */
public final class SileroModelFiles {
    public static final String DEFAULT_NAME = "silero_vad";
    public static final List<ModelFile> ALL = List.of(ModelFile.SILERO_VAD_V5, ModelFile.SILERO_VAD_V6);

    private SileroModelFiles() {}

    /** The store entry for a name, or null when the argument is not one of the names. */
    public static ModelFile byName(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "silero_vad", "silero_vad_v6", "v6" -> ModelFile.SILERO_VAD_V6;
            case "silero_vad_v5", "v5" -> ModelFile.SILERO_VAD_V5;
            default -> null;
        };
    }

    /** Resolves {@code --model} (null means the default) to a verified local file. */
    public static Path resolve(String model, ModelStore store, Consumer<String> log) throws IOException {
        String m = model == null ? DEFAULT_NAME : model;
        ModelFile named = byName(m);
        if (named != null) {
            if (!store.has(named)) log.accept(named.name() + " is not in the model cache yet; pulling it (audioengine models pull silero_vad)");
            return store.pull(named, ALL, log);
        }
        Path p = Path.of(m);
        if (!Files.isRegularFile(p)) {
            throw new IOException("model file not found: " + m + " (--model takes silero_vad, silero_vad_v5, silero_vad_v6 "
                    + "or the path of silero_vad_v5.onnx / silero_vad_v6.onnx)");
        }
        String hash = ModelStore.sha256(p);
        for (ModelFile f : ALL) if (f.sha256().equals(hash)) return p;
        throw new IOException(p + " is not Silero VAD v5 or v6: its sha256 " + hash + " matches neither " + ModelFile.SILERO_VAD_V5.name()
                + " (" + ModelFile.SILERO_VAD_V5.sha256() + ") nor " + ModelFile.SILERO_VAD_V6.name() + " ("
                + ModelFile.SILERO_VAD_V6.sha256() + "). A corrupted or different file? 'audioengine models pull silero_vad' fetches the right ones.");
    }
}
