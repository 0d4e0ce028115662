package dev.audioengine.cli;

import dev.audioengine.cli.task.AudioInputs;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Some inputs of a run of several failed: each was reported when it failed and the others were processed; this ends
 * the run with exit status 1, naming them once more.
 */
public final class InputsFailed extends RuntimeException {
    public InputsFailed(List<Path> failed, int inputs) {
        super(failed.size() + " of " + inputs + " inputs failed: "
                + failed.stream().map(AudioInputs::describe).collect(Collectors.joining(", ")));
    }
}
