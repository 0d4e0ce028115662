package dev.audioengine.models;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.audio.AudioClip;
import dev.audioengine.audio.WavReader;
import dev.audioengine.model.Models;
import dev.audioengine.model.output.WavStreamWriter;
import dev.audioengine.model.output.WavWriter;
import dev.audioengine.model.task.SpeechSynthesizer;
import dev.audioengine.model.task.SpeechSynthesizer.SpeechAudio;
import dev.audioengine.model.task.SpeechSynthesizer.SpeechPiece;
import dev.audioengine.model.task.SynthesisOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's speech-synthesis example compiles (it is this file), runs with Kokoro on a short text, and the README
 * shows exactly it. The book is two short paragraphs of one sentence, so that the second piece reuses the first's
 * compiled graphs: synthesis on a shared 2-core machine takes tens of seconds a new length.
 */
class ReadmeTtsExampleTest {
    static void example(Path book, Path hello, Path bookWav) throws IOException {
        // README-TTS-START
        try (AudioEngine engine = AudioEngine.builder().build();
             SpeechSynthesizer tts = Models.load(engine, "kokoro", SpeechSynthesizer.class)) {
            // A short text at once: 24 kHz samples. tts.voices() lists the voices; speed is within [0.25, 4].
            SynthesisOptions options = SynthesisOptions.DEFAULTS.withVoice("af_heart").withSpeed(1.1);
            SpeechAudio audio = tts.synthesize("Hello there.", options);
            WavWriter.writePcm16(hello, audio.samples(), audio.sampleRate());
            // A text of any length, read as it is spoken: audio piece by piece (sentences), in bounded memory.
            try (Reader text = Files.newBufferedReader(book);
                 WavStreamWriter wav = WavStreamWriter.toFile(bookWav, tts.sampleRate())) {
                for (Iterator<SpeechPiece> pieces = tts.stream(text, options); pieces.hasNext(); ) {
                    SpeechPiece piece = pieces.next();
                    wav.write(piece.samples()); // or play them: the first audio comes after the first piece
                    System.out.printf("%.2f s: %s%n", piece.seconds(), piece.text());
                }
            }
        }
        // README-TTS-END
    }

    @Test
    void readmeShowsThisExampleVerbatim() throws IOException {
        ReadmeExamples.assertReadmeShows("TTS", ReadmeTtsExampleTest.class);
    }

    @Test
    void exampleSaysAShortTextAndStreamsABook(@TempDir Path dir) throws IOException {
        Path book = Files.writeString(dir.resolve("book.txt"), "Hello there.\n\nHello there.\n");
        Path hello = dir.resolve("hello.wav"), bookWav = dir.resolve("book.wav");
        var lines = ReadmeExamples.printed(() -> example(book, hello, bookWav));
        assertThat(lines).hasSize(2).allMatch(l -> l.matches("\\d\\.\\d\\d s: Hello there\\."));
        AudioClip once = WavReader.read(hello), twice = WavReader.read(bookWav);
        assertThat(once.sampleRate()).isEqualTo(24000);
        assertThat(once.samples().length / 24000.0).isBetween(0.4, 3.0);
        assertThat(twice.sampleRate()).isEqualTo(24000);
        assertThat(twice.samples()).as("the same sentence twice, the same voice and speed").hasSize(2 * once.samples().length);
    }
}
