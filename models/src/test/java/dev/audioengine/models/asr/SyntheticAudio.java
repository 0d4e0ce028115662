package dev.audioengine.models.asr;

/** Audio whose every sample tells its position, so a fake decoder can check that it got the window it was told. */
final class SyntheticAudio {
    private static final int PERIOD = 10_007; // prime: lines up with no chunk, block or window size

    private SyntheticAudio() {}

    static float at(long position) {
        return (position % PERIOD) / (float) PERIOD;
    }

    static float[] block(long position, int length) {
        float[] out = new float[length];
        for (int i = 0; i < length; i++) out[i] = at(position + i);
        return out;
    }
}
