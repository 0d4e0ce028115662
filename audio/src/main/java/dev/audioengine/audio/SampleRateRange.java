package dev.audioengine.audio;

/**
 * The sample rates a header may declare. Real audio runs from 8 kHz telephony to 768 kHz
 * studio captures; a rate outside that is a corrupt or hostile header, and trusting it costs
 * memory (an 8 Hz header asks the resampler for a 2000-fold upsampling) or arithmetic overflow.
 */
final class SampleRateRange {
    static final int MIN = 1000, MAX = 768_000;

    private SampleRateRange() {}

    /** {@code rate} is the header's field read unsigned, so a negative int can be reported as written. */
    static void check(long rate, String source) throws AudioFormatException {
        if (rate < MIN || rate > MAX) {
            throw new AudioFormatException(source + ": the header declares a sample rate of " + rate
                    + " Hz, outside the " + MIN + " Hz .. " + MAX + " Hz this reader accepts (corrupt header?)");
        }
    }
}
