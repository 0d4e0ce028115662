package dev.audioengine.gpu;

import java.util.function.IntFunction;

/** A vendor runtime call failed; the message names the call and the vendor's error name (cuGetErrorName, hipGetErrorName). */
public final class GpuException extends RuntimeException {
    private final String call;
    private final String errorName;

    public GpuException(String call, String errorName) {
        super(call + " failed: " + errorName);
        this.call = call;
        this.errorName = errorName;
    }

    /** Throws when {@code status} is not 0 (success in every vendor's enum), named by {@code names}. */
    public static void check(int status, String call, IntFunction<String> names) {
        if (status != 0) throw new GpuException(call, names.apply(status));
    }

    /** Downcalls declare Throwable; ours only ever throw unchecked exceptions or errors. */
    public static RuntimeException unchecked(Throwable t) {
        if (t instanceof RuntimeException r) throw r;
        if (t instanceof Error e) throw e;
        throw new IllegalStateException(t);
    }

    /** The failing call, e.g. hipGetDeviceCount. */
    public String call() {
        return call;
    }

    /** The vendor's name for the error, e.g. CUDA_ERROR_NO_DEVICE or hipErrorNoDevice. */
    public String errorName() {
        return errorName;
    }
}
