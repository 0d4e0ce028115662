package dev.audioengine.weights.onnx;

/** An ONNX file that cannot be read: truncated, hostile or not ONNX. The message names the file and the byte offset. */
public final class OnnxFormatException extends RuntimeException {
    public OnnxFormatException(String message) {
        super(message);
    }

    public OnnxFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
