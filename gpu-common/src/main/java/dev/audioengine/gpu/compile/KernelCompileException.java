package dev.audioengine.gpu.compile;

import java.util.List;

/** A kernel source the runtime compiler refused: the message names the file, options and error; {@link #log()} is the compiler's. */
public final class KernelCompileException extends IllegalStateException {
    private final String log;

    public KernelCompileException(String compiler, String name, List<String> options, String error, String log) {
        super(compiler + " could not compile " + name + " with " + options + ": " + error + "\n" + log);
        this.log = log;
    }

    public String log() {
        return log;
    }
}
