package dev.audioengine.backend.cpu.kernels;

/**
 * Float arrays shared by the kernels of one compiled run. Its kernels run one after another, so each may use a
 * slot for the length of its own call; arrays grow to the largest request and live as long as the run. Without
 * sharing, every spectral convolution of Kokoro's synthesis graph held its own tens of megabytes of blocks.
 */
public final class RunScratch {
    /** The slot of the GEMMs' packed A panels ({@code linear.Gemm}); the spectral convolutions use 0-3. */
    public static final int GEMM_A = 4;
    /** The columns a transposed convolution scatters from ({@code linear.ConvTranspose1dKernel}). */
    public static final int CONV_TRANSPOSE_COLS = 5;

    private final float[][] slots = new float[6][];

    /** Slot {@code slot}, at least {@code n} floats; its contents are whatever the last user left. */
    public float[] floats(int slot, int n) {
        float[] a = slots[slot];
        if (a == null || a.length < n) slots[slot] = a = new float[n];
        return a;
    }
}
