package dev.audioengine.models.basicpitch;

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
import dev.audioengine.weights.tfjs.TfjsModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * The basic-pitch family: Spotify's Basic Pitch (Apache-2.0, code and weights), the default for {@code --task notes}.
 * The files are the TF.js graph model its npm package {@code @spotify/basic-pitch} 1.0.1 ships ({@code model/}); the
 * engine reads them as a weight container ({@link TfjsModel}) and runs its own network ({@link BasicPitchNetwork}).
 * {@code --model PATH} takes a model.json (its shards beside it) or a folder holding one, of the same architecture.
 * Its graphs use no optional capability.
 */
public final class BasicPitchFamily implements ModelFamily {
    static final String NPM = "@spotify/basic-pitch@1.0.1";
    /** The licence of Basic Pitch's code and weights. */
    public static final String LICENCE = "Apache-2.0";

    public static final ModelFile MODEL_JSON =
            file("model.json", "1ed1aaee3409ec1dc098c8b01f430c0911f6fe9412e7af8086750f9e8f302f68", 174_537);
    public static final ModelFile SHARD =
            file("group1-shard1of1.bin", "b142a95737a52e1e412d5f92e73d8bb80dfe8d04941acc0702f11f4524fb377c", 742_392);

    public static final ModelVariant V1 = new ModelVariant(
            "basic-pitch",
            List.of("basic-pitch-1.0.1", "basicpitch"),
            Task.NOTES,
            "Spotify Basic Pitch (ICASSP 2022): polyphonic notes A0-C8 with pitch bends; 22050 Hz, 11.6 ms frames",
            List.of(MODEL_JSON, SHARD),
            LICENCE);

    private static ModelFile file(String entry, String sha256, long bytes) {
        // cached under the family's prefix: the store is one folder, and "model.json" is a generic name
        return new ModelFile(
                "basic-pitch-" + entry, sha256, bytes, List.of(new ModelSource.Npm(NPM, "package/model/" + entry)));
    }

    @Override
    public String name() {
        return "basic-pitch";
    }

    @Override
    public String description() {
        return "Spotify Basic Pitch: audio to MIDI notes (polyphonic, any instrument), 22050 Hz";
    }

    @Override
    public Set<Task> tasks() {
        return Set.of(Task.NOTES);
    }

    @Override
    public List<ModelVariant> variants() {
        return List.of(V1);
    }

    @Override
    public boolean isDefaultFor(Task task) {
        return task == Task.NOTES;
    }

    @Override
    public Set<Capability> uses() {
        return Set.of();
    }

    @Override
    public String validate(Path path) throws IOException {
        Path json = modelJson(path);
        try (BasicPitchWeights w = new BasicPitchWeights(TfjsModel.read(json))) {
            return "Basic Pitch TF.js model (" + json + ")";
        } catch (IllegalArgumentException e) {
            throw new ModelFormatException(e.getMessage(), e);
        }
    }

    @Override
    public TaskModel load(AudioEngine engine, ModelLocation location) throws IOException {
        if (location.task() != Task.NOTES)
            throw new IllegalArgumentException(
                    "basic-pitch serves --task notes, not " + location.task().cliName());
        if (location.namedVariant().isPresent()) {
            Path json = location.file(MODEL_JSON.name()), shard = location.file(SHARD.name());
            TfjsModel m = TfjsModel.read(json, name -> {
                if (!name.equals("group1-shard1of1.bin"))
                    throw new IllegalArgumentException(json + " names a shard " + name + " the variant does not pin");
                return shard;
            });
            return new BasicPitchTranscriber(engine, new BasicPitchWeights(m), V1.name() + " (" + LICENCE + ")");
        }
        Path json = modelJson(location.path());
        try {
            return new BasicPitchTranscriber(
                    engine, new BasicPitchWeights(TfjsModel.read(json)), "Basic Pitch TF.js model (" + json + ")");
        } catch (IllegalArgumentException e) {
            throw new ModelFormatException(e.getMessage(), e);
        }
    }

    private static Path modelJson(Path path) throws ModelFormatException {
        Path json = Files.isDirectory(path) ? path.resolve("model.json") : path;
        if (!json.getFileName().toString().endsWith(".json") || !Files.isRegularFile(json))
            throw new ModelFormatException(path + " is not a TF.js model.json (nor a folder holding one)");
        return json;
    }
}
