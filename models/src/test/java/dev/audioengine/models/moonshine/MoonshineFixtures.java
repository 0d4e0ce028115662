package dev.audioengine.models.moonshine;

import dev.audioengine.audio.AudioClip;
import dev.audioengine.audio.WavReader;
import dev.audioengine.model.ModelFile;
import dev.audioengine.model.store.ModelStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The pinned Moonshine files (through the model store: npm, sha256-checked) and Debian's recorded speech with transcripts. */
final class MoonshineFixtures {
    static final Path POCKETSPHINX = Path.of("/usr/share/pocketsphinx/test/data");

    /** One recording of pocketsphinx-testdata and what is said in it. */
    record Utterance(String id, float[] samples, String transcript) {
        double seconds() {
            return samples.length / 16000.0;
        }

        @Override
        public String toString() {
            return id;
        }
    }

    private MoonshineFixtures() {}

    static Path file(ModelFile f) {
        try {
            return ModelStore.userCache().pull(f, msg -> System.err.println("[model store] " + msg));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static MoonshineCheckpoint tiny() {
        return new MoonshineCheckpoint(
                MoonshineCheckpoint.Kind.ONNX_EXPORT,
                file(MoonshineFamily.TINY_ENCODER),
                file(MoonshineFamily.TINY_DECODER),
                null,
                null);
    }

    static MoonshineCheckpoint base() {
        return new MoonshineCheckpoint(
                MoonshineCheckpoint.Kind.ONNX_EXPORT,
                file(MoonshineFamily.BASE_ENCODER),
                file(MoonshineFamily.BASE_DECODER),
                null,
                null);
    }

    static Path tokenizer() {
        return file(MoonshineFamily.TOKENIZER);
    }

    /** The 10 recordings of librivox/ and cards/ (92 words), 16 kHz, with their reference transcripts. */
    static List<Utterance> debianSet() {
        if (!Files.isDirectory(POCKETSPHINX)) {
            throw new IllegalStateException(
                    POCKETSPHINX + " is missing: install Debian's pocketsphinx-testdata (scripts/test-setup does)");
        }
        List<Utterance> out = new ArrayList<>();
        try {
            read(out, POCKETSPHINX.resolve("librivox/transcription"), POCKETSPHINX.resolve("librivox"));
            read(out, POCKETSPHINX.resolve("cards/cards.transcription"), POCKETSPHINX.resolve("cards"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    private static final Pattern LINE = Pattern.compile("<s>(.*)</s>\\s*\\((.+)\\)");

    private static void read(List<Utterance> out, Path transcription, Path folder) throws IOException {
        for (String line : Files.readAllLines(transcription)) {
            Matcher m = LINE.matcher(line.strip());
            if (!m.matches()) continue;
            AudioClip clip = WavReader.read(folder.resolve(m.group(2) + ".wav"));
            if (clip.sampleRate() != 16000)
                throw new IllegalStateException(m.group(2) + " is " + clip.sampleRate() + " Hz");
            out.add(new Utterance(m.group(2), clip.samples(), m.group(1).strip().replaceAll("\\s+", " ")));
        }
    }
}
