package dev.audioengine.models;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.audio.AudioClip;
import dev.audioengine.audio.WavReader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's speech-synthesis example, compiled as the README shows it (imports included) and run with Kokoro on a
 * short text. The book is two short paragraphs of one sentence, so that the second piece reuses the first's compiled
 * graphs: synthesis on a shared 2-core machine takes tens of seconds a new length.
 */
class ReadmeTtsExampleTest {
    @Test
    void exampleSaysAShortTextAndStreamsABook(@TempDir Path dir) throws Exception {
        Path book = Files.writeString(dir.resolve("book.txt"), "Hello there.\n\nHello there.\n");
        Path hello = dir.resolve("hello.wav"), bookWav = dir.resolve("book.wav");
        var lines = ReadmeExamples.printed(
                () -> ReadmeExamples.run("TtsExample", dir, book.toString(), hello.toString(), bookWav.toString()));
        assertThat(lines).hasSize(2).allMatch(l -> l.matches("\\d\\.\\d\\d s: Hello there\\."));
        AudioClip once = WavReader.read(hello), twice = WavReader.read(bookWav);
        assertThat(once.sampleRate()).isEqualTo(24000);
        assertThat(once.samples().length / 24000.0).isBetween(0.4, 3.0);
        assertThat(twice.sampleRate()).isEqualTo(24000);
        assertThat(twice.samples())
                .as("the same sentence twice, the same voice and speed")
                .hasSize(2 * once.samples().length);
    }
}
