package dev.audioengine.models;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.audio.WavReader;
import dev.audioengine.model.Models;
import dev.audioengine.model.task.SpeechEvent;
import dev.audioengine.model.task.SpeechSegment;
import dev.audioengine.model.task.VadOptions;
import dev.audioengine.model.task.VadStream;
import dev.audioengine.model.task.VoiceActivityDetector;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/** The README's voice-activity example compiles (it is this file), runs on the example recording, and the README shows exactly it. */
class ReadmeVadExampleTest {
    static void example(Path wav) throws IOException {
        // README-VAD-START
        try (AudioEngine engine = AudioEngine.builder().build();
             VoiceActivityDetector vad = Models.load(engine, "silero_vad", VoiceActivityDetector.class)) {
            // A whole file: speech segments. The model is pulled into the user's cache on first use.
            for (SpeechSegment s : vad.segments(wav, VadOptions.DEFAULTS)) {
                System.out.printf("speech %.2f - %.2f s%n", s.startSeconds(), s.endSeconds());
            }
            // Audio as it arrives, in pieces of any size: one stream per source, fed from one thread.
            float[] samples = WavReader.read(wav).samples();
            try (VadStream live = vad.stream(16000, VadOptions.DEFAULTS)) {
                for (int i = 0; i < samples.length; i += 320) {
                    for (SpeechEvent e : live.accept(Arrays.copyOfRange(samples, i, Math.min(samples.length, i + 320))).events()) {
                        System.out.printf("%s at %.2f s%n", e.kind(), e.seconds());
                    }
                }
                live.finish().events().forEach(e -> System.out.printf("%s at %.2f s%n", e.kind(), e.seconds()));
            }
        }
        // README-VAD-END
    }

    @Test
    void readmeShowsThisExampleVerbatim() throws IOException {
        ReadmeExamples.assertReadmeShows("VAD", ReadmeVadExampleTest.class);
    }

    @Test
    void exampleFindsTheSameSpeechOfflineAndStreaming() throws IOException {
        var lines = ReadmeExamples.printed(() -> example(Path.of("../docs/examples/speech.wav")));
        long segments = lines.stream().filter(l -> l.startsWith("speech ")).count();
        assertThat(segments).as("the example recording has speech: %s", lines).isGreaterThanOrEqualTo(2);
        assertThat(lines.stream().filter(l -> l.startsWith("START at ")).count()).isEqualTo(segments);
        assertThat(lines.stream().filter(l -> l.startsWith("END at ")).count()).isEqualTo(segments);
    }
}
