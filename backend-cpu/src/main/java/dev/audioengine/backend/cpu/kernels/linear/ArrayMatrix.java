package dev.audioengine.backend.cpu.kernels.linear;

/** A row-major matrix in a float array (scratch the kernels fill themselves). */
public record ArrayMatrix(float[] array, int offset, int rows, int cols, int ld) implements MatrixSource {
    @Override
    public void readRow(int r, int k0, int len, float[] dst, int off) {
        System.arraycopy(array, offset + r * ld + k0, dst, off, len);
    }
}
