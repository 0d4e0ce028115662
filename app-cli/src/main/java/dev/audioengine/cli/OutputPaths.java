package dev.audioengine.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Output files named on the command line, checked before the work starts so a typo does not cost a whole run. */
final class OutputPaths {
    private OutputPaths() {}

    /** With one input {@code path} is a file to write; with several it must be an existing folder. */
    static void check(String option, Path path, int inputs) throws IOException {
        if (path == null) return;
        if (inputs > 1) {
            if (!Files.isDirectory(path)) throw new UsageError(option + " " + path + ": with " + inputs + " inputs it must name an existing folder");
            if (!Files.isWritable(path)) throw new AccessDeniedException(path.toString(), null, "the folder for " + option + " is not writable");
            return;
        }
        if (Files.isDirectory(path)) throw new IOException(option + " " + path + " is a folder; name a file");
        Path parent = path.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) throw new NoSuchFileException(path.toString(), null, "the folder for " + option + " does not exist");
        if (!Files.isWritable(parent) || (Files.exists(path) && !Files.isWritable(path))) {
            throw new AccessDeniedException(path.toString(), null, option + " cannot be written");
        }
    }

    /** The file for one input: {@code path} itself with one input, else {@code <folder>/<input name><suffix>}. */
    static Path forInput(Path path, Path input, int inputs, String suffix) {
        if (inputs == 1) return path;
        String name = input.equals(AudioInputs.STDIN) ? "stdin" : input.getFileName().toString();
        return path.resolve(name + suffix);
    }
}
