package dev.audioengine.models.whisper;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.capability.Capability;
import dev.audioengine.model.ModelFamily;
import dev.audioengine.model.ModelFormatException;
import dev.audioengine.model.ModelLocation;
import dev.audioengine.model.ModelVariant;
import dev.audioengine.model.Task;
import dev.audioengine.model.TaskModel;
import dev.audioengine.model.store.ModelStore;
import dev.audioengine.models.silero.SileroVadFamily;
import dev.audioengine.models.whisper.WhisperNetwork.WhisperConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * The whisper family (OpenAI, MIT): speech recognition in 99 languages and translation into English, from a file the
 * user has: whisper.cpp's {@code ggml-*.bin} (F32 or F16 tensors) or a Hugging Face folder ({@code config.json},
 * {@code model.safetensors}, {@code tokenizer.json}), through {@code --model PATH}. No variant is pinned: Whisper's
 * real weights are not reachable from the machines that verify this engine (docs/WHISPER.md says what was verified).
 * Long audio is cut into windows of at most 30 s by Silero VAD (pinned, pulled once).
 */
public final class WhisperFamily implements ModelFamily {
    @Override
    public String name() {
        return "whisper";
    }

    @Override
    public String description() {
        return "Whisper: speech recognition in 99 languages and translation to English (OpenAI), from a whisper.cpp"
                + " ggml file or a Hugging Face folder (--model PATH)";
    }

    @Override
    public Set<Task> tasks() {
        return Set.of(Task.ASR);
    }

    @Override
    public List<ModelVariant> variants() {
        return List.of();
    }

    @Override
    public ModelVariant defaultVariant(Task task) {
        throw new IllegalArgumentException("whisper has no pinned weights: give --model PATH, a whisper.cpp"
                + " ggml-*.bin file or a Hugging Face folder with config.json, model.safetensors and tokenizer.json");
    }

    @Override
    public Set<Capability> uses() {
        return WhisperModel.USES;
    }

    @Override
    public String validate(Path path) throws IOException {
        if (Files.isDirectory(path)) {
            Path config = path.resolve("config.json");
            if (!Files.isRegularFile(config) || !Files.readString(config).contains("\"whisper\""))
                throw new ModelFormatException(path + " has no config.json of model_type \"whisper\"");
            for (String f : List.of("model.safetensors", "tokenizer.json"))
                if (!Files.isRegularFile(path.resolve(f)))
                    throw new ModelFormatException(path + " is a Whisper folder without " + f);
            WhisperConfig c = WhisperModel.hfConfig(config);
            return "a Whisper checkpoint (transformers layout, " + describe(c) + "), " + path;
        }
        int[] h = ggmlHeader(path);
        if (h == null)
            throw new ModelFormatException(path + " is neither a whisper.cpp ggml file (magic 0x67676d6c) nor a"
                    + " Hugging Face Whisper folder");
        try {
            // the hyperparameters only: opening the file would copy every tensor (gigabytes for large models)
            WhisperConfig c = new WhisperConfig(h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8], h[9]);
            return "a whisper.cpp model (ggml, " + describe(c) + (h[10] == 0 ? ", F32" : h[10] == 1 ? ", F16" : "")
                    + "), " + path;
        } catch (IllegalArgumentException e) {
            throw new ModelFormatException(path + " is not a Whisper model: " + e.getMessage(), e);
        }
    }

    private static String describe(WhisperConfig c) {
        return c.audioState() + " wide, " + c.audioLayers() + "+" + c.textLayers() + " layers, "
                + (c.vocabulary() == 51864 ? "English-only" : "multilingual") + ", " + c.mels() + " mels";
    }

    /** whisper.cpp's eleven hyperparameters after its magic, or null when the file does not start with that magic. */
    private static int[] ggmlHeader(Path path) throws IOException {
        if (!Files.isRegularFile(path)) return null;
        try (InputStream in = Files.newInputStream(path)) {
            byte[] head = in.readNBytes(48);
            ByteBuffer b = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN);
            if (head.length < 4 || b.getInt() != 0x67676d6c) return null;
            if (head.length < 48)
                throw new ModelFormatException(path + " is a whisper.cpp file cut short: " + head.length + " bytes");
            int[] h = new int[11];
            for (int i = 0; i < h.length; i++) h[i] = b.getInt();
            return h;
        }
    }

    @Override
    public TaskModel load(AudioEngine engine, ModelLocation location) throws IOException {
        if (location.task() != Task.ASR)
            throw new IllegalArgumentException(
                    "whisper serves --task asr, not " + location.task().cliName());
        if (location.namedVariant().isPresent() || location.path() == null)
            throw new IllegalArgumentException("whisper has no pinned weights: give --model PATH");
        Path vad = ModelStore.userCache().pull(SileroVadFamily.V6_FILE, m -> System.err.println(m));
        return WhisperRecognizer.load(engine, location.path(), vad, "whisper " + location.path());
    }
}
