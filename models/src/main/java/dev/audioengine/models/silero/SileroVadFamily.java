package dev.audioengine.models.silero;

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
import dev.audioengine.model.store.FileHash;
import dev.audioengine.weights.onnx.OnnxModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * The silero_vad family (Silero VAD v5 and v6, MIT): voice activity detection at 8 and 16 kHz, the default for
 * {@code --task vad}. Weights come from the ONNX files that npm's {@code @ricky0123/vad-web} ships. Its graphs use no
 * optional capability.
 */
public final class SileroVadFamily implements ModelFamily {
    static final String NPM = "@ricky0123/vad-web@0.0.31";
    public static final ModelFile V5_FILE = new ModelFile(
            "silero_vad_v5.onnx",
            "2623a2953f6ff3d2c1e61740c6cdb7168133479b267dfef114a4a3cc5bdd788f",
            2_327_524,
            List.of(new ModelSource.Npm(NPM, "package/dist/silero_vad_v5.onnx")));
    public static final ModelFile V6_FILE = new ModelFile(
            "silero_vad_v6.onnx",
            "1a153a22f4509e292a94e67d6f9b85e8deb25b4988682b7e174c65279d8788e3",
            2_327_524,
            List.of(new ModelSource.Npm(NPM, "package/dist/silero_vad_v6.onnx")));
    public static final ModelVariant V6 = new ModelVariant(
            "silero_vad",
            List.of("silero_vad_v6", "v6"),
            Task.VAD,
            "Silero VAD v6, 8 and 16 kHz",
            List.of(V6_FILE),
            "MIT");
    public static final ModelVariant V5 = new ModelVariant(
            "silero_vad_v5", List.of("v5"), Task.VAD, "Silero VAD v5, 8 and 16 kHz", List.of(V5_FILE), "MIT");

    @Override
    public String name() {
        return "silero_vad";
    }

    @Override
    public String description() {
        return "Silero VAD: voice activity detection, 32 ms chunks, 8 and 16 kHz";
    }

    @Override
    public Set<Task> tasks() {
        return Set.of(Task.VAD);
    }

    @Override
    public List<ModelVariant> variants() {
        return List.of(V6, V5);
    }

    @Override
    public boolean isDefaultFor(Task task) {
        return task == Task.VAD;
    }

    @Override
    public Set<Capability> uses() {
        return Set.of();
    }

    @Override
    public String validate(Path path) throws IOException {
        Path onnx = onnxFile(path);
        String version = version(onnx);
        try (OnnxModel m = OnnxModel.read(onnx)) {
            SileroWeights.fromOnnx(m, onnx.toString()).values().forEach(SileroWeights::close);
        } catch (RuntimeException
                | IOException e) { // a file that is not ONNX at all, or an ONNX graph of another shape
            throw new ModelFormatException(onnx + " is not a Silero VAD v5/v6 ONNX file: " + e.getMessage(), e);
        }
        return "Silero VAD "
                + (version.equals("unknown")
                        ? "graph (a file of the v5/v6 layout, not one of the pinned files)"
                        : version)
                + ", " + onnx;
    }

    @Override
    public TaskModel load(AudioEngine engine, ModelLocation location) throws IOException {
        if (location.task() != Task.VAD)
            throw new IllegalArgumentException(
                    "silero_vad serves --task vad, not " + location.task().cliName());
        return SileroVad.load(engine, onnxFile(location.path()));
    }

    /** "v5", "v6", or "unknown" for a file of the right shape with another hash. */
    static String version(Path onnx) throws IOException {
        String hash = FileHash.sha256(onnx, V6_FILE.sha256(), V5_FILE.sha256());
        return hash.equals(V5_FILE.sha256()) ? "v5" : hash.equals(V6_FILE.sha256()) ? "v6" : "unknown";
    }

    /** The ONNX file itself, or the one in a folder (silero_vad.onnx, else its only .onnx file). */
    private static Path onnxFile(Path path) throws IOException {
        if (!Files.isDirectory(path)) return path;
        Path named = path.resolve("silero_vad.onnx");
        if (Files.isRegularFile(named)) return named;
        try (var files = Files.list(path)) {
            List<Path> onnx = files.filter(p -> p.getFileName().toString().endsWith(".onnx"))
                    .toList();
            if (onnx.size() == 1) return onnx.getFirst();
            throw new ModelFormatException(
                    path + " is a folder with " + onnx.size() + " .onnx files; name the Silero VAD file itself");
        }
    }
}
