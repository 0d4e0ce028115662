package dev.audioengine.models.silero;

import dev.audioengine.audio.WavReader;
import java.nio.file.Path;

/**
 * The one-shot peer of {@code audioengine --task vad --audio FILE}: ONNX Runtime Java runs Silero over one 16 kHz WAV,
 * chunk by chunk as its wrapper does, and prints how many chunks are speech (probability at least 0.5). Run as its own
 * process by scripts/peers/bench-startup: <pre>OrtVadOneShot SILERO.onnx AUDIO.wav</pre>
 */
public final class OrtVadOneShot {
    private OrtVadOneShot() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 2) throw new IllegalArgumentException("usage: OrtVadOneShot SILERO.onnx AUDIO.wav");
        float[] audio = WavReader.read(Path.of(args[1])).samples();
        try (OrtSilero ort = new OrtSilero(Path.of(args[0]), 16000)) {
            int speech = 0;
            float[] p = ort.probabilities(audio);
            for (float v : p) if (v >= 0.5f) speech++;
            System.out.println(speech + " of " + p.length + " chunks are speech");
        }
    }
}
