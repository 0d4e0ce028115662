package dev.audioengine.models.silero;

/**
 * Which taps of a kernel-3, padding-1 convolution ever see input for a fixed number of input
 * frames, and whether any kept tap still reads padding. Silero's windows always give the encoder
 * 4, 4, 2 and 1 frames; at 2 frames with stride 2 the first tap only ever reads padding, and at
 * 1 frame only the middle tap reads input. Dropping such taps saves their multiplications by
 * zero and the pad and concat that would feed them.
 *
 * @param first        the first kept tap (0..2)
 * @param count        how many consecutive taps are kept
 * @param padded       whether a kept tap reads padding for some output frame
 * @param inputFrames  frames in
 * @param stride       the convolution's stride
 */
record EncoderTaps(int first, int count, boolean padded, long inputFrames, int stride) {
    static final int KERNEL = 3;

    static EncoderTaps of(long inputFrames, int stride) {
        long out = (inputFrames - 1) / stride + 1;
        int first = -1, last = -1;
        boolean padded = false;
        for (int k = 0; k < KERNEL; k++) {
            boolean any = false, pad = false;
            for (long t = 0; t < out; t++) {
                long i = t * stride + k - 1; // input frame read by tap k for output t
                if (i >= 0 && i < inputFrames) any = true;
                else pad = true;
            }
            if (any) {
                if (first < 0) first = k;
                last = k;
                padded |= pad;
            }
        }
        return new EncoderTaps(first, last - first + 1, padded, inputFrames, stride);
    }

    long outputFrames() {
        return (inputFrames - 1) / stride + 1;
    }
}
