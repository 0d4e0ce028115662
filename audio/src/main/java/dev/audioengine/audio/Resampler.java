package dev.audioengine.audio;

/**
 * Band-limited sample-rate conversion of a whole clip by a rational factor L/M with a
 * Kaiser-windowed sinc, evaluated polyphase (one filter per output phase). The filter passes up to
 * 85% of the lower rate's Nyquist frequency flat, stops from that Nyquist frequency on with about
 * 100 dB of attenuation, and treats the signal as zero outside its ends. {@link AudioStream} does
 * the same conversion block by block. A Resampler holds only its filter and is thread-safe.
 */
public final class Resampler {
    private final int fromRate, toRate;
    private final long up, down;

    public Resampler(int fromRate, int toRate) {
        if (fromRate <= 0 || toRate <= 0)
            throw new IllegalArgumentException("sample rates must be positive: " + fromRate + " -> " + toRate);
        this.fromRate = fromRate;
        this.toRate = toRate;
        long g = java.math.BigInteger.valueOf(fromRate)
                .gcd(java.math.BigInteger.valueOf(toRate))
                .longValue();
        up = toRate / g;
        down = fromRate / g;
    }

    public static float[] resample(float[] x, int fromRate, int toRate) {
        return fromRate == toRate ? x.clone() : new Resampler(fromRate, toRate).process(x);
    }

    /** Number of output samples for n input samples: ceil(n · L / M). */
    public long outputLength(long n) {
        return Math.ceilDiv(Math.multiplyExact(n, up), down);
    }

    public float[] process(float[] x) {
        StreamingResampler stream = new StreamingResampler(fromRate, toRate);
        stream.push(x, 0, x.length);
        stream.finish();
        float[] y = new float[Math.toIntExact(outputLength(x.length))];
        int at = 0, n;
        while (at < y.length && (n = stream.pull(y, at, y.length - at)) > 0) at += n;
        return y;
    }
}
