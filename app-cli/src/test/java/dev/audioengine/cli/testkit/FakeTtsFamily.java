package dev.audioengine.cli.testkit;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.exec.RunSummary;
import dev.audioengine.model.FamilyRegistry;
import dev.audioengine.model.MissingDependencyException;
import dev.audioengine.model.ModelFamily;
import dev.audioengine.model.ModelFile;
import dev.audioengine.model.ModelFormatException;
import dev.audioengine.model.ModelLocation;
import dev.audioengine.model.ModelSource;
import dev.audioengine.model.ModelVariant;
import dev.audioengine.model.Task;
import dev.audioengine.model.TaskModel;
import dev.audioengine.model.task.SpeechSynthesizer;
import dev.audioengine.model.task.SynthesisOptions;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A speech synthesis family for the CLI's tests. A piece is a sentence (up to . ! ? or a line break, at most 200
 * characters), read from the Reader only when the iterator reaches it; a piece without a letter or digit is skipped,
 * as nothing in it can be said. Its audio is a sine (a pitch per voice) of 10 ms per character at 24 kHz, divided by
 * the speed; its "phonemes" are its text in lower case. The Japanese voice fails as Kokoro's does without misaki.
 */
public final class FakeTtsFamily implements ModelFamily {
    public static final int RATE = 24000;
    public static final List<SpeechSynthesizer.Voice> VOICES = List.of(
            new SpeechSynthesizer.Voice("af_heart", "en-US", "female"),
            new SpeechSynthesizer.Voice("bm_george", "en-GB", "male"),
            new SpeechSynthesizer.Voice("jf_alpha", "ja", "female"));
    public static final String JAPANESE =
            "Kokoro's Japanese voices need misaki's kana phonemes, which espeak-ng cannot give";

    /** What Kokoro says on a machine without espeak-ng. */
    public static final String NO_ESPEAK =
            "espeak-ng, which Kokoro's text front end needs, is not installed: libespeak-ng.so.1 not found (tried it on"
                    + " the loader path); install Debian's libespeak-ng1 and espeak-ng-data (apt-get install libespeak-ng1 espeak-ng-data)";

    public final AtomicInteger loads = new AtomicInteger();
    public volatile SynthesisOptions lastOptions;
    /** When set, synthesis fails as Kokoro's does where espeak-ng is not installed. */
    public volatile boolean espeakMissing;

    public FamilyRegistry registry() {
        return FamilyRegistry.of(List.of(this));
    }

    public static Path modelFile(Path dir) throws IOException {
        return Files.writeString(dir.resolve("fake.tts"), "fake-tts model\n");
    }

    /** The samples of one piece, as the model makes them: what a test compares a WAV with. */
    public static float[] audio(String piece, SynthesisOptions options) {
        double hz = "bm_george".equals(options.voice()) ? 120 : 220;
        int n = (int) Math.round(piece.length() * RATE / 100.0 / options.speed());
        float[] x = new float[n];
        for (int i = 0; i < n; i++) x[i] = (float) (0.5 * Math.sin(2 * Math.PI * hz * i / RATE));
        return x;
    }

    @Override
    public String name() {
        return "fake_tts";
    }

    @Override
    public String description() {
        return "sines for sentences, for the CLI's tests";
    }

    @Override
    public Set<Task> tasks() {
        return Set.of(Task.TTS);
    }

    @Override
    public boolean isDefaultFor(Task task) {
        return task == Task.TTS;
    }

    @Override
    public Set<Capability> uses() {
        return Set.of();
    }

    @Override
    public List<ModelVariant> variants() {
        ModelFile file = new ModelFile(
                "fake.tts",
                "0".repeat(64),
                0,
                List.of(new ModelSource.Https(URI.create("https://example.org/fake.tts"))));
        return List.of(new ModelVariant("fake-tts", List.of(), Task.TTS, "sines", List.of(file), "CC0-1.0"));
    }

    @Override
    public String validate(Path path) throws IOException {
        if (!Files.isRegularFile(path) || !Files.readString(path).startsWith("fake-tts"))
            throw new ModelFormatException(path + " is not a fake-tts file");
        return "fake-tts (sines)";
    }

    @Override
    public TaskModel load(AudioEngine engine, ModelLocation location) throws IOException {
        validate(location.path());
        loads.incrementAndGet();
        return new Synthesizer();
    }

    private final class Synthesizer implements SpeechSynthesizer {
        @Override
        public Task task() {
            return Task.TTS;
        }

        @Override
        public String describe() {
            return "fake-tts (sines)";
        }

        @Override
        public java.util.Optional<RunSummary> runSummary() {
            return java.util.Optional.empty();
        }

        @Override
        public void close() {}

        @Override
        public int sampleRate() {
            return RATE;
        }

        @Override
        public List<Voice> voices() {
            return VOICES;
        }

        @Override
        public String defaultVoice() {
            return "af_heart";
        }

        @Override
        public Iterator<SpeechPiece> stream(Reader text, SynthesisOptions options) {
            lastOptions = options;
            if (espeakMissing) throw new MissingDependencyException(NO_ESPEAK);
            if (options.voice() != null
                    && VOICES.stream().noneMatch(v -> v.name().equals(options.voice()))) {
                throw new IllegalArgumentException("no voice " + options.voice());
            }
            return new Iterator<>() {
                private SpeechPiece next;
                private boolean ended;

                @Override
                public boolean hasNext() {
                    while (next == null && !ended) {
                        String s = sentence(text);
                        if (s == null) ended = true;
                        else if (s.codePoints().anyMatch(Character::isLetterOrDigit)) {
                            if ("jf_alpha".equals(options.voice())) throw new IllegalArgumentException(JAPANESE);
                            next = new SpeechPiece(s, s.toLowerCase(Locale.ROOT), audio(s, options), RATE);
                        }
                    }
                    return next != null;
                }

                @Override
                public SpeechPiece next() {
                    if (!hasNext()) throw new NoSuchElementException();
                    SpeechPiece p = next;
                    next = null;
                    return p;
                }
            };
        }
    }

    /** The next sentence, stripped; null at the end of the text. */
    private static String sentence(Reader text) {
        try {
            StringBuilder s = new StringBuilder();
            int c;
            while ((c = text.read()) >= 0) {
                if (c == '\n') break;
                s.append((char) c);
                if (c == '.' || c == '!' || c == '?' || s.length() >= 200) break;
            }
            return c < 0 && s.isEmpty() ? null : s.toString().strip();
        } catch (IOException e) {
            throw new UncheckedIOException("reading the text", e);
        }
    }
}
