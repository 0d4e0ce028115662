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

    public static <T extends TaskModel> T load(AudioEngine engine, String nameOrPath, Class<T> type)
            throws IOException {
        return ModelLoader.standard(PullListener.SILENT).load(engine, nameOrPath, type);
    }
}
