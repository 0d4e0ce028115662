package dev.audioengine.server.serving;

import dev.audioengine.model.ModelFamily;
import dev.audioengine.model.ModelVariant;
import dev.audioengine.model.Task;
import java.nio.file.Path;
import java.util.Locale;

/**
 * What one {@code --models} entry stands for: a named variant of the model cache ({@code moonshine-tiny}), or a file
 * or folder of the operator's under a name clients send ({@code my-whisper=/models/ggml-base.bin}: the way to serve
 * weights no variant pins, such as a fine-tuned Whisper). Requests only ever name an entry; none sends a path.
 *
 * @param id      the name clients send and /v1/models lists
 * @param family  the family that loads it
 * @param task    the task it serves
 * @param variant the cache's variant, or null for a path
 * @param path    the operator's file or folder, or null for a variant
 */
public record ServedSource(String id, ModelFamily family, Task task, ModelVariant variant, Path path) {
    static ServedSource of(ModelFamily family, ModelVariant variant) {
        return new ServedSource(variant.name(), family, variant.task(), variant, null);
    }

    /** Whether a request's {@code name} means this entry: a variant's name or alias, or a path's given name (any case). */
    boolean answersTo(String name) {
        return variant != null
                ? variant.answersTo(name)
                : id.toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT));
    }

    /** What {@link dev.audioengine.model.ModelLoader#choose} takes for it: the variant's name or the path. */
    String nameOrPath() {
        return variant != null ? variant.name() : path.toString();
    }
}
