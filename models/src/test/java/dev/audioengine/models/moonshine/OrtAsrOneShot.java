package dev.audioengine.models.moonshine;

import dev.audioengine.audio.WavReader;
import dev.audioengine.models.moonshine.MoonshineNetwork.MoonshineConfig;
import java.nio.file.Path;

/**
 * The one-shot peer of {@code audioengine --task asr --audio FILE}: ONNX Runtime Java loads moonshine-js's encoder and
 * merged decoder, transcribes one 16 kHz WAV greedily as moonshine-js does, prints the text and exits. Run as its own
 * process by scripts/peers/bench-startup, so JVM start, native library load and model load count as they do for a user:
 * <pre>OrtAsrOneShot ENCODER.onnx DECODER.onnx LLAMA_TOKENIZER.js AUDIO.wav THREADS</pre>
 */
public final class OrtAsrOneShot {
    private OrtAsrOneShot() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 5)
            throw new IllegalArgumentException("usage: OrtAsrOneShot ENCODER DECODER TOKENIZER AUDIO THREADS");
        Path encoder = Path.of(args[0]), decoder = Path.of(args[1]);
        MoonshineCheckpoint files =
                new MoonshineCheckpoint(MoonshineCheckpoint.Kind.ONNX_EXPORT, encoder, decoder, null, null);
        MoonshineConfig config = MoonshineCheckpoint.releasedSize(hidden(encoder), encoder);
        MoonshineTokenizer tokenizer = MoonshineTokenizer.fromLlamaTokenizerJs(Path.of(args[2]));
        float[] audio = WavReader.read(Path.of(args[3])).samples();
        try (OrtMoonshine ort = new OrtMoonshine(files, config, Integer.parseInt(args[4]))) {
            System.out.println(tokenizer.decode(ort.transcribe(audio)).strip());
        }
    }

    /** tiny's width is 288, base's 416: the file names tell them apart as the model store names them. */
    private static long hidden(Path encoder) {
        return encoder.getFileName().toString().contains("base")
                ? MoonshineConfig.BASE.hidden()
                : MoonshineConfig.TINY.hidden();
    }
}
