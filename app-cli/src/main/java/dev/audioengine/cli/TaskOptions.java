package dev.audioengine.cli;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * The {@code --task} form of the command (audio.cpp's spelling): {@code audioengine --task vad
 * --audio in.wav ...}. Mixed into the top-level command; each task's options live in its own
 * class.
 */
public final class TaskOptions {
    @Option(names = "--task", paramLabel = "TASK", order = 1, description = "Run a model task: vad (voice activity detection).")
    private String task;

    @Mixin
    private VadTask vad = new VadTask();

    boolean requested() { return task != null; }

    void run(AudioEngineCommand top, PrintWriter out, PrintWriter err) throws IOException {
        switch (task.toLowerCase(Locale.ROOT)) {
            case "vad" -> vad.run(top, out, err);
            default -> throw new IllegalArgumentException("unknown --task '" + task + "'; tasks: vad");
        }
    }
}
