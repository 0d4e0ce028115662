package dev.audioengine.cli.task;

import dev.audioengine.cli.UsageError;
import dev.audioengine.cli.daemon.WorkingDirectory;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Output files named on the command line, checked before the work starts so a typo does not cost a whole run. */
final class OutputPaths {
    private OutputPaths() {}

    /** A file the command will write and the option that names it. */
    record Output(String option, Path file) {}

    /** With one input {@code path} is a file to write; with several it must be an existing folder. */
    static void check(String option, Path path, int inputs) throws IOException {
        if (path == null) return;
        if (inputs > 1) {
            if (!Files.isDirectory(path))
                throw new UsageError(
                        option + " " + path + ": with " + inputs + " inputs it must name an existing folder");
            if (!Files.isWritable(path))
                throw new AccessDeniedException(path.toString(), null, "the folder for " + option + " is not writable");
            probe(option, path, path);
            return;
        }
        if (Files.isDirectory(path)) throw new IOException(option + " " + path + " is a folder; name a file");
        Path parent = WorkingDirectory.absolute(path).getParent();
        if (parent == null || !Files.isDirectory(parent))
            throw new NoSuchFileException(path.toString(), null, "the folder for " + option + " does not exist");
        if (!Files.isWritable(parent) || (Files.exists(path) && !Files.isWritable(path))) {
            throw new AccessDeniedException(path.toString(), null, option + " cannot be written");
        }
        probe(option, path, parent);
    }

    /**
     * Creates and removes a file in {@code folder}, where the output will be written: permissions say little for root,
     * who may still not create a file in /proc or /sys, and without this the run would learn it when its first result
     * is written, after the model was loaded and the work done.
     */
    private static void probe(String option, Path path, Path folder) throws IOException {
        Path probe =
                folder.resolve(".audioengine." + ProcessHandle.current().pid() + "." + System.nanoTime() + ".probe");
        try {
            Files.createFile(probe);
        } catch (IOException e) {
            throw new IOException(
                    option + " " + path + " cannot be written: " + folder + " takes no new file (" + why(e) + ")", e);
        }
        Files.deleteIfExists(probe);
    }

    /** What went wrong with a file, without the file's name (the caller says which file it was about). */
    static String why(IOException e) {
        if (e instanceof FileSystemException f && f.getReason() != null) return f.getReason();
        if (e instanceof NoSuchFileException) return "no such file or directory";
        if (e instanceof AccessDeniedException) return "permission denied";
        return String.valueOf(e.getMessage());
    }

    /** The file for one input: {@code path} itself with one input, else {@code <folder>/<input name><suffix>}. */
    static Path forInput(Path path, Path input, int inputs, String suffix) {
        if (inputs == 1) return path;
        String name =
                input.equals(AudioInputs.STDIN) ? "stdin" : input.getFileName().toString();
        return path.resolve(name + suffix);
    }

    /** What {@code option} writes for {@code inputs}: each input's file of {@link #forInput}; none without the option. */
    static List<Output> outputs(String option, Path path, List<Path> inputs, String suffix) {
        if (path == null) return List.of();
        return inputs.stream()
                .map(in -> new Output(option, forInput(path, in, inputs.size(), suffix)))
                .toList();
    }

    /**
     * Refuses, as a usage error, an output that is one of the inputs, whatever path names it (a link, "..", a hard
     * link), and two options that name one file: the run would replace the recording or text it is reading, or one
     * result with another, and say nothing.
     */
    static void refuseOverwriting(List<Path> inputs, List<Output> outputs) throws IOException {
        Map<Object, Path> inputKeys = new HashMap<>();
        for (Path in : inputs) {
            if (!in.toString().equals("-") && Files.exists(in))
                inputKeys.putIfAbsent(key(in), in); // "-" is standard input
        }
        Map<Object, Output> written = new HashMap<>();
        for (Output o : outputs) {
            Object k = key(o.file());
            Path in = inputKeys.get(k);
            if (in != null)
                throw new UsageError(o.option() + " " + o.file() + " is the input " + in + "; name another file");
            Output other = written.putIfAbsent(k, o);
            if (other != null && !other.option().equals(o.option())) {
                throw new UsageError(
                        other.option() + " and " + o.option() + " both name " + o.file() + "; give each its own file");
            }
        }
    }

    /**
     * What tells one file from another whatever path names it: the file system's key (device and inode, so links and
     * hard links too) for a file that exists, else the real path of its folder with its name.
     */
    private static Object key(Path p) throws IOException {
        if (Files.exists(p)) {
            Object k = Files.readAttributes(p, BasicFileAttributes.class).fileKey();
            return k != null ? k : WorkingDirectory.absolute(p).toRealPath();
        }
        Path parent = WorkingDirectory.absolute(p).getParent();
        return (parent != null && Files.isDirectory(parent)
                        ? parent.toRealPath()
                        : WorkingDirectory.absolute(p).normalize().getParent())
                .resolve(p.getFileName());
    }
}
