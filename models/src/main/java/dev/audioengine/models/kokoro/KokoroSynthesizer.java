package dev.audioengine.models.kokoro;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.RunSummary;
import dev.audioengine.model.Task;
import dev.audioengine.model.task.SpeechSynthesizer;
import dev.audioengine.model.task.SynthesisOptions;
import dev.audioengine.models.kokoro.text.KokoroLanguage;
import dev.audioengine.models.kokoro.text.KokoroPhonemizer;
import dev.audioengine.models.kokoro.text.KokoroVocabulary;
import dev.audioengine.models.kokoro.text.TextChunker;
import dev.audioengine.models.kokoro.text.TextPiece;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Kokoro-82M as a {@link SpeechSynthesizer}: text → pieces under 510 phonemes (espeak-ng, misaki's mapping) → phoneme
 * ids padded with 0 → the voice's style row for that length → the network → 24 kHz audio, piece by piece. The
 * network's runs take turns on the engine (the backend runs one graph at a time), so concurrent callers are safe.
 */
public final class KokoroSynthesizer implements SpeechSynthesizer {
    public static final String DEFAULT_VOICE = "af_heart";

    private final AudioEngine engine;
    private final KokoroModel model;
    private final Function<String, Path> voiceFiles;
    private final Map<String, KokoroVoice> voices = new ConcurrentHashMap<>();
    private final String description;

    private KokoroSynthesizer(
            AudioEngine engine, KokoroModel model, Function<String, Path> voiceFiles, String description) {
        this.engine = engine;
        this.model = model;
        this.voiceFiles = voiceFiles;
        this.description = description;
    }

    /** Loads the network; voices are read from {@code voiceFiles} (voice name → its .bin) when first used. */
    public static KokoroSynthesizer load(
            AudioEngine engine, Path onnx, Path tokenizer, Function<String, Path> voiceFiles, String what)
            throws IOException {
        return new KokoroSynthesizer(
                engine, KokoroModel.load(engine, onnx, KokoroVocabulary.read(tokenizer)), voiceFiles, what);
    }

    @Override
    public Task task() {
        return Task.TTS;
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public java.util.Optional<RunSummary> runSummary() {
        return java.util.Optional.empty();
    }

    @Override
    public int sampleRate() {
        return KokoroModel.SAMPLE_RATE;
    }

    @Override
    public String defaultVoice() {
        return DEFAULT_VOICE;
    }

    @Override
    public List<Voice> voices() {
        return KokoroFiles.VOICES.stream()
                .map(v -> new Voice(
                        v.name(), languageTag(v.language()), v.gender().name().toLowerCase(Locale.ROOT)))
                .toList();
    }

    @Override
    public Iterator<SpeechPiece> stream(Reader text, SynthesisOptions options) {
        String name = options.voice() == null ? DEFAULT_VOICE : options.voice();
        if (KokoroFiles.VOICES.stream().noneMatch(v -> v.name().equals(name))) {
            throw new IllegalArgumentException("unknown voice '" + name + "'; Kokoro's voices: "
                    + String.join(
                            ", ",
                            KokoroFiles.VOICES.stream()
                                    .map(KokoroFiles.Voice::name)
                                    .toList()));
        }
        // refuses the languages espeak cannot serve, and a machine without espeak-ng, before anything is read
        KokoroPhonemizer phonemizer = KokoroPhonemizer.of(KokoroLanguage.of(name), model.vocabulary());
        KokoroVoice voice = voice(name);
        Iterator<TextPiece> pieces = new TextChunker(phonemizer).pieces(text);
        float speed = (float) options.speed();
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return pieces.hasNext();
            }

            @Override
            public SpeechPiece next() {
                if (!hasNext()) throw new NoSuchElementException();
                TextPiece p = pieces.next();
                long[] ids = model.vocabulary().encode(p.phonemes().phonemes());
                float[] audio;
                synchronized (engine) {
                    audio = model.waveform(ids, voice.style(ids.length - 2), speed);
                }
                return new SpeechPiece(p.text(), p.phonemes().phonemes(), audio, KokoroModel.SAMPLE_RATE);
            }
        };
    }

    private KokoroVoice voice(String name) {
        return voices.computeIfAbsent(name, n -> {
            try {
                return KokoroVoice.read(n, voiceFiles.apply(n));
            } catch (IOException e) {
                throw new UncheckedIOException("could not read Kokoro voice " + n + ": " + e.getMessage(), e);
            }
        });
    }

    static String languageTag(KokoroFiles.Language l) {
        return switch (l) {
            case AMERICAN_ENGLISH -> "en-US";
            case BRITISH_ENGLISH -> "en-GB";
            case SPANISH -> "es";
            case FRENCH -> "fr-FR";
            case HINDI -> "hi";
            case ITALIAN -> "it";
            case JAPANESE -> "ja";
            case BRAZILIAN_PORTUGUESE -> "pt-BR";
            case MANDARIN -> "zh";
        };
    }

    @Override
    public void close() {
        model.close();
    }
}
