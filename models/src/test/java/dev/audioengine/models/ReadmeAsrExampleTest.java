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

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The README's speech-recognition example compiles (it is this file), runs on the example recording, and the README shows exactly it. */
class ReadmeAsrExampleTest {
    private static final String START = "// README-ASR-START", END = "// README-ASR-END";

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
        Path readme = Path.of(System.getProperty("user.dir")).getParent().resolve("README.md");
        String fromReadme = between(Files.readString(readme));
        String fromHere = between(Files.readString(Path.of("src/test/java/dev/audioengine/models/ReadmeAsrExampleTest.java")));
        assertThat(normalize(fromReadme)).isEqualTo(normalize(fromHere));
    }

    @Test
    void exampleTranscribesTheExampleRecordingOfflineAndLive() throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream old = System.out;
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            example(Path.of("../docs/examples/dashwood.wav"));
        } finally {
            System.setOut(old);
        }
        String said = "And Mr. John Dashwood had then leisure to consider how much there might be prudently in his power to do for them.";
        var lines = buf.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).anyMatch(l -> l.startsWith("[") && l.endsWith("] " + said));
        assertThat(lines).contains("final: " + said);
    }

    private static String between(String text) {
        int s = text.indexOf(START + "\n"), e = text.indexOf(END + "\n");
        assertThat(s).as("markers present").isGreaterThanOrEqualTo(0);
        assertThat(e).isGreaterThan(s);
        return text.substring(s + START.length(), e);
    }

    private static String normalize(String block) {
        return block.lines().map(String::strip).filter(l -> !l.isEmpty()).reduce("", (a, b) -> a + b + "\n");
    }
}
