package dev.audioengine.model;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.model.store.PullListener;
import java.io.IOException;

/**
 * The short way to a loaded model from a program:
 * <pre>{@code
 * try (AudioEngine engine = AudioEngine.builder().build();
 *      VoiceActivityDetector vad = Models.load(engine, "silero_vad", VoiceActivityDetector.class)) {
 *     List<SpeechSegment> speech = vad.segments(Path.of("speech.wav"), VadOptions.DEFAULTS);
 * }
 * }</pre>
 * Names are variant names ({@code models list}) or paths of files a family can validate; a named variant missing from
 * the user's cache is pulled first. For other registries, stores or progress reporting, use {@link ModelLoader}.
 */
public final class Models {
    private Models() {}

    /**
     * Loads a model from the installed families and the user's cache, pulling a named variant first if needed
     * (silently: use {@link ModelLoader} to see progress).
     *
     * @param <T> the task interface
     * @param engine the engine whose backend runs the model; it must outlive the model
     * @param nameOrPath a variant name or alias ({@code silero_vad}), or a path to a model file or folder
     * @param type the task interface wanted, e.g. {@code VoiceActivityDetector.class}
     * @return the model; the caller closes it before the engine
     * @throws IllegalArgumentException if {@code type} is not a task interface, or the name serves another task
     * @throws NoFamilyException if no installed family serves the task
     * @throws ModelFormatException if no family accepts the path, or the files are not what the family expects
     * @throws IOException if the name is unknown and no such path exists, or pulling (network, npm, a hash mismatch)
     *     or reading fails; the message says what to do
     */
    public static <T extends TaskModel> T load(AudioEngine engine, String nameOrPath, Class<T> type)
            throws IOException {
        return ModelLoader.standard(PullListener.SILENT).load(engine, nameOrPath, type);
    }
}
