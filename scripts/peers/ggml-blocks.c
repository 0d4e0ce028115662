/*
 * ggml's own quantization and dequantization of given values, for the engine's GgmlBlocksTest: reads float32 values
 * from stdin, quantizes them as rows of ROW values to TYPE with ggml_quantize_chunk, dequantizes the blocks with the
 * type's to_float, and writes the block bytes to BLOCKS and the dequantized floats to stdout. Linked by
 * scripts/peers/whisper-cpp-build against the ggml that whisper.cpp's source (npm nodejs-whisper@0.3.1) builds.
 *
 *   ggml-blocks TYPE ROW BLOCKS < values.f32 > dequantized.f32       TYPE: a ggml type id (6 for Q5_0, 12 for Q4_K, ...)
 */
#include <stdio.h>
#include <stdlib.h>
#include "ggml.h"

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: ggml-blocks TYPE ROW BLOCKS < values.f32 > dequantized.f32\n");
        return 2;
    }
    enum ggml_type type = (enum ggml_type) atoi(argv[1]);
    long row = atol(argv[2]);
    size_t cap = 1 << 20, n = 0;
    float *x = malloc(cap * sizeof(float));
    for (size_t r; (r = fread(x + n, sizeof(float), cap - n, stdin)) > 0;) {
        n += r;
        if (n == cap) x = realloc(x, (cap *= 2) * sizeof(float));
    }
    if (row <= 0 || n % row != 0 || row % ggml_blck_size(type) != 0) {
        fprintf(stderr, "ggml-blocks: %zu values do not make rows of %ld in blocks of %ld\n", n, row,
                (long) ggml_blck_size(type));
        return 2;
    }
    size_t bytes = ggml_row_size(type, row) * (n / row);
    void *q = malloc(bytes);
    float *y = malloc(n * sizeof(float));
    size_t written = ggml_quantize_chunk(type, x, q, 0, n / row, row, NULL);
    if (written != bytes) {
        fprintf(stderr, "ggml-blocks: wrote %zu bytes, expected %zu\n", written, bytes);
        return 1;
    }
    ggml_get_type_traits(type)->to_float(q, y, (int64_t) n);
    FILE *out = fopen(argv[3], "wb");
    if (!out || fwrite(q, 1, bytes, out) != bytes || fclose(out) != 0) {
        perror(argv[3]);
        return 1;
    }
    fwrite(y, sizeof(float), n, stdout);
    return 0;
}
