package dev.audioengine.cli.task;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * An output file written beside its place ({@code .NAME.*.partial}) and moved there on {@link #commit}: a run that
 * fails half way (a language the model does not speak at the tenth sentence) leaves no half file, and does not
 * destroy the file of an earlier run.
 */
final class ReplacingFile implements AutoCloseable {
    private final Path target, temp;
    private boolean committed;

    ReplacingFile(Path target) {
        this.target = target;
        Path dir = dev.audioengine.cli.daemon.WorkingDirectory.absolute(target).getParent();
        // not Files.createTempFile: its 0600 would become the output's permissions; the writer creates it under the
        // umask
        this.temp = dir.resolve("." + target.getFileName() + "."
                + ProcessHandle.current().pid() + "." + System.nanoTime() + ".partial");
    }

    /** Where to write. */
    Path temp() {
        return temp;
    }

    /** Puts the written file in place, replacing what was there. */
    void commit() throws IOException {
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
        }
        committed = true;
    }

    /** Whether {@link #commit} put the file in place. */
    boolean committed() {
        return committed;
    }

    /**
     * A failure to create, write or move the hidden file, said of the file the user named: the hidden name means nothing
     * to whoever gave {@code option}.
     */
    IOException named(String option, IOException e) {
        return new IOException(option + " " + target + " cannot be written: " + OutputPaths.why(e), e);
    }

    /** Removes the partial file unless it was committed. */
    @Override
    public void close() throws IOException {
        if (!committed) Files.deleteIfExists(temp);
    }
}
