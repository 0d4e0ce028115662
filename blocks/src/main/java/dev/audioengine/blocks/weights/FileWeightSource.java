package dev.audioengine.blocks.weights;

import dev.audioengine.weights.WeightFile;
import java.util.List;

/** safetensors and GGUF: every tensor is stored under its name, as a view of the mapped file. */
final class FileWeightSource implements WeightSource {
    private final WeightFile file;
    private final boolean owned;

    FileWeightSource(WeightFile file, boolean owned) {
        this.file = file;
        this.owned = owned;
    }

    @Override
    public Lookup find(String name) {
        return file.contains(name) ? new Lookup(file.get(name), false) : null;
    }

    @Override
    public List<String> names() {
        return file.names();
    }

    @Override
    public String location() {
        return file.path().toString();
    }

    @Override
    public String triedFor(String name) {
        return "the " + file.format() + " tensor of that name";
    }

    @Override
    public void close() {
        if (owned) file.close();
    }
}
