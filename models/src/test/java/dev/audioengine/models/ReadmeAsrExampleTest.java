package dev.audioengine.models;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.model.Models;
import dev.audioengine.model.task.AsrOptions;
import dev.audioengine.model.task.AsrStream;
import dev.audioengine.model.task.SpeechRecognizer;
import dev.audioengine.model.task.Transcript;
import dev.audioengine.model.task.TranscriptEvent;
import dev.audioengine.model.task.TranscriptSegment;
import dev.audioengine.audio.WavReader;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The README's speech-recognition example compiles (it is this file), runs on the example recording, and the README shows exactly it. */
class ReadmeAsrExampleTest {
    static void example(Path wav) throws IOException {
        // README-ASR-START
        try (AudioEngine engine = AudioEngine.builder().build();
             SpeechRecognizer asr = Models.load(engine, "moonshine-tiny", SpeechRecognizer.class)) {
            // A whole file of any length: speech found by the VAD, decoded in windows of up to 20 s.
            Transcript t = asr.transcribe(wav, AsrOptions.DEFAULTS);
            for (TranscriptSegment s : t.segments()) System.out.printf("[%.2f - %.2f] %s%n", s.startSeconds(), s.endSeconds(), s.text());
            // Live audio in pieces of any size: partial text while someone speaks, final text per segment.
            float[] samples = WavReader.read(wav).samples(); // 16 kHz mono
            try (AsrStream live = asr.stream(AsrOptions.DEFAULTS)) {
                for (int i = 0; i < samples.length; i += 320) {
                    for (TranscriptEvent e : live.accept(samples, i, Math.min(320, samples.length - i))) {
                        if (e instanceof TranscriptEvent.Final f) System.out.println("final: " + f.segment().text());
                    }
                }
                live.finish().forEach(e -> System.out.println("final: " + e.segment().text()));
            }
        }
        // README-ASR-END
    }

    @Test
    void readmeShowsThisExampleVerbatim() throws IOException {
        ReadmeExamples.assertReadmeShows("ASR", ReadmeAsrExampleTest.class);
    }

    @Test
    void exampleTranscribesTheExampleRecordingOfflineAndLive() throws IOException {
        var lines = ReadmeExamples.printed(() -> example(Path.of("../docs/examples/dashwood.wav")));
        String said = "And Mr. John Dashwood had then leisure to consider how much there might be prudently in his power to do for them.";
        assertThat(lines).anyMatch(l -> l.startsWith("[") && l.endsWith("] " + said));
        assertThat(lines).contains("final: " + said);
    }
}
