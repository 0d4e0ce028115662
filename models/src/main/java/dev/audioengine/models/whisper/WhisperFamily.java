package dev.audioengine.models.whisper;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.capability.Capability;
import dev.audioengine.model.ModelFamily;
import dev.audioengine.model.ModelFile;
import dev.audioengine.model.ModelFormatException;
import dev.audioengine.model.ModelLocation;
import dev.audioengine.model.ModelSource;
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
 * user has: whisper.cpp's {@code ggml-*.bin} or a Hugging Face folder ({@code config.json}, {@code model.safetensors},
 * {@code tokenizer.json}), through {@code --model PATH}; or by name from the Hugging Face hub, in both layouts:
 * {@code ggml-NAME} is whisper.cpp's {@code ggml-NAME.bin} from {@code ggerganov/whisper.cpp} (the quantized ones as
 * whisper.cpp names them, {@code ggml-base-q5_1}), {@code whisper-NAME} is {@code openai/whisper-NAME}'s three
 * transformers files. Their hashes are not written here: the hub's API reports each file's sha256 (or git blob id) and
 * commit at the first pull, and the cache keeps that pin (docs/WHISPER.md: Whisper's real weights are not reachable
 * from the machines that verify this engine, so only a loopback fake hub was fetched from). Long audio is cut into
 * windows of at most 30 s by Silero VAD (pinned, pulled once) when the VAD segmenter is chosen.
 */
public final class WhisperFamily implements ModelFamily {
    @Override
    public String name() {
        return "whisper";
    }

    @Override
    public String description() {
        return "Whisper: speech recognition in 99 languages and translation to English (OpenAI): ggml-NAME (whisper.cpp's"
                + " files) or whisper-NAME (transformers' layout) from the Hugging Face hub, or --model PATH to either";
    }

    @Override
    public Set<Task> tasks() {
        return Set.of(Task.ASR);
    }

    /** The hub repository of whisper.cpp's converted files. */
    static final String GGML_REPO = "ggerganov/whisper.cpp";

    /**
     * whisper.cpp's files on the hub, as its {@code models/download-ggml-model.sh} names them (the quantized ones
     * included), plus distil-large-v3's, which its own repository ships.
     */
    private static final List<String> GGML = List.of(
            "tiny",
            "tiny-q5_1",
            "tiny-q8_0",
            "tiny.en",
            "tiny.en-q5_1",
            "base",
            "base-q5_1",
            "base-q8_0",
            "base.en",
            "base.en-q5_1",
            "small",
            "small-q5_1",
            "small-q8_0",
            "small.en",
            "small.en-q5_1",
            "medium",
            "medium-q5_0",
            "medium-q8_0",
            "medium.en",
            "medium.en-q5_0",
            "large-v3",
            "large-v3-q5_0",
            "large-v3-turbo",
            "large-v3-turbo-q5_0",
            "large-v3-turbo-q8_0",
            "distil-large-v3");

    /** OpenAI's checkpoints in transformers' layout ({@code openai/whisper-NAME}), and distil-whisper's. */
    private static final List<String> TRANSFORMERS = List.of(
            "tiny",
            "tiny.en",
            "base",
            "base.en",
            "small",
            "small.en",
            "medium",
            "medium.en",
            "large-v3",
            "large-v3-turbo",
            "distil-large-v3");

    /** The files the transformers loader reads, in the order the variant lists them (weights first). */
    static final List<String> TRANSFORMERS_FILES = List.of("model.safetensors", "config.json", "tokenizer.json");

    private static final List<ModelVariant> VARIANTS = variantsTable();

    private static List<ModelVariant> variantsTable() {
        List<ModelVariant> v = new java.util.ArrayList<>();
        for (String name : GGML) {
            String repo = name.startsWith("distil-") ? "distil-whisper/" + name : GGML_REPO;
            String file = "ggml-" + name + ".bin";
            v.add(new ModelVariant(
                    "ggml-" + name,
                    List.of(),
                    Task.ASR,
                    "Whisper " + name + " as whisper.cpp's " + file + " (" + repo + " on the Hugging Face hub; sha256"
                            + " as the hub reports it)",
                    List.of(ModelFile.onHub(file, new ModelSource.HuggingFace(repo, "main", file))),
                    "MIT"));
        }
        for (String name : TRANSFORMERS) {
            String repo = name.startsWith("distil-") ? "distil-whisper/" + name : "openai/whisper-" + name;
            String variant = "whisper-" + name;
            List<ModelFile> files = TRANSFORMERS_FILES.stream()
                    .map(f -> ModelFile.onHub(cacheName(variant, f), new ModelSource.HuggingFace(repo, "main", f)))
                    .toList();
            v.add(new ModelVariant(
                    variant,
                    List.of(),
                    Task.ASR,
                    "Whisper " + name + " in transformers' layout (" + repo + " on the Hugging Face hub: "
                            + String.join(", ", TRANSFORMERS_FILES) + "; sha256 as the hub reports it)",
                    files,
                    "MIT"));
        }
        return List.copyOf(v);
    }

    /** The cache holds files flat, so a transformers variant's files carry its name ({@code whisper-base.config.json}). */
    static String cacheName(String variant, String file) {
        return variant + "." + file;
    }

    @Override
    public List<ModelVariant> variants() {
        return VARIANTS;
    }

    /** whisper.cpp's own default model, multilingual, 148 MB. */
    @Override
    public ModelVariant defaultVariant(Task task) {
        if (task != Task.ASR) throw new IllegalArgumentException("whisper has no variant for task " + task.cliName());
        return VARIANTS.stream()
                .filter(v -> v.name().equals("ggml-base"))
                .findFirst()
                .orElseThrow();
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
        Path vad = ModelStore.userCache().pull(SileroVadFamily.V6_FILE, m -> System.err.println(m));
        if (location.namedVariant().isEmpty())
            return WhisperRecognizer.load(engine, location.path(), vad, "whisper " + location.path());
        ModelVariant v = location.namedVariant().get();
        if (v.files().size() == 1) // a whisper.cpp file holds its hyperparameters and vocabulary
        return WhisperRecognizer.load(engine, location.path(), vad, "whisper " + v.name());
        WhisperModel m = WhisperModel.load(
                engine,
                location.file(cacheName(v.name(), "model.safetensors")),
                location.file(cacheName(v.name(), "config.json")),
                location.file(cacheName(v.name(), "tokenizer.json")),
                dev.audioengine.api.tensor.DType.F32);
        return WhisperRecognizer.of(engine, m, vad, "whisper " + v.name());
    }
}
