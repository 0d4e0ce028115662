package dev.audioengine.audio;

/** ITU-T G.711 A-law and µ-law bytes to linear samples, scaled as 16-bit PCM (sox and libsndfile decode to the same values). */
final class G711 {
    private static final float[] A_LAW = new float[256], MU_LAW = new float[256];

    static {
        for (int i = 0; i < 256; i++) {
            A_LAW[i] = alaw(i) / 32768f;
            MU_LAW[i] = ulaw(i) / 32768f;
        }
    }

    private G711() {}

    static float aLaw(byte b) {
        return A_LAW[b & 0xFF];
    }

    static float muLaw(byte b) {
        return MU_LAW[b & 0xFF];
    }

    private static int alaw(int code) {
        int a = code ^ 0x55;
        int t = (a & 0x0F) << 4;
        int segment = (a & 0x70) >> 4;
        if (segment == 0) t += 8;
        else t = (t + 0x108) << (segment - 1);
        return (a & 0x80) != 0 ? t : -t;
    }

    private static int ulaw(int code) {
        int u = ~code & 0xFF;
        int t = (((u & 0x0F) << 3) + 0x84) << ((u & 0x70) >> 4);
        return (u & 0x80) != 0 ? 0x84 - t : t - 0x84;
    }
}
