package dev.audioengine.weights;

import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.Shape;

/**
 * Where one named tensor lives in a weight file.
 *
 * @param name       the tensor's name in the file
 * @param dtype      element type, in the engine's (= ggml's) byte layout
 * @param shape      outermost dimension first (GGUF's ggml order is reversed to get this)
 * @param fileOffset absolute byte offset of the first element in the file
 * @param byteSize   bytes the tensor occupies ({@code dtype.bytesFor(shape.elements())})
 */
public record TensorInfo(String name, DType dtype, Shape shape, long fileOffset, long byteSize) {}
