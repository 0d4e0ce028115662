package dev.audioengine.model;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** What a model does, as named by {@code --task}; each task has its typed interface in {@code dev.audioengine.model.task}. */
public enum Task {
    VAD("vad", "voice activity detection"),
    ASR("asr", "speech recognition"),
    TTS("tts", "speech synthesis"),
    KWS("kws", "keyword spotting");

    private final String cliName;
    private final String description;

    Task(String cliName, String description) {
        this.cliName = cliName;
        this.description = description;
    }

    /** The {@code --task} spelling. */
    public String cliName() {
        return cliName;
    }

    public String description() {
        return description;
    }

    /** The task named {@code name} (case-insensitive); unknown names fail listing the valid ones. */
    public static Task parse(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        for (Task t : values()) if (t.cliName.equals(n)) return t;
        throw new IllegalArgumentException("unknown task '" + name + "'; tasks: "
                + Arrays.stream(values()).map(Task::cliName).collect(Collectors.joining(", ")));
    }
}
