package dev.audioengine.cli.task;

import dev.audioengine.cli.UsageError;
import dev.audioengine.model.ModelLoader;
import dev.audioengine.model.Task;
import java.io.IOException;
import java.nio.file.NoSuchFileException;

/** What {@code --family} and {@code --model} name, resolved as every command that loads a model resolves it. */
public final class ModelChoice {
    private ModelChoice() {}

    /**
     * The loader's choice, with the user's mistakes as usage errors (exit 2): a family or model that does not serve the
     * task, and a model name that names no model. A path that does not exist stays a missing file (exit 1), as any
     * other file the command is given.
     */
    public static ModelLoader.Choice choose(ModelLoader loader, Task task, String family, String model)
            throws IOException {
        try {
            return loader.choose(task, family, model);
        } catch (IllegalArgumentException e) {
            throw new UsageError(e.getMessage(), e);
        } catch (NoSuchFileException e) {
            if (model == null || !model.equals(e.getFile()) || looksLikePath(model)) throw e;
            throw new UsageError(
                    "unknown model '" + model + "'; models: "
                            + String.join(", ", loader.registry().variantNames())
                            + " ('audioengine models list' says more), or the path of a model file or folder",
                    e);
        }
    }

    /** A name with a folder or an extension in it was meant as a file; a bare word, as one of the model names. */
    private static boolean looksLikePath(String model) {
        return model.indexOf('/') >= 0
                || model.indexOf(java.io.File.separatorChar) >= 0
                || model.indexOf('.') >= 0
                || model.startsWith("~");
    }
}
