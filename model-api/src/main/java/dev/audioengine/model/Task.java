package dev.audioengine.model;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** What a model does, as named by {@code --task}; each task has its typed interface in {@code dev.audioengine.model.task}. */
public enum Task {
    /** Voice activity detection: where speech is; {@code VoiceActivityDetector}. */
    VAD("vad", "voice activity detection"),
    /** Speech recognition: audio to text; {@code SpeechRecognizer}. */
    ASR("asr", "speech recognition"),
    /** Speech synthesis: text to audio; {@code SpeechSynthesizer}. */
    TTS("tts", "speech synthesis"),
    /** Keyword spotting (wake words): when a keyword is said; {@code KeywordSpotter}. */
    KWS("kws", "keyword spotting"),
    /** Audio to notes (music transcription): which pitches sound when, as MIDI; {@code NoteTranscriber}. */
    NOTES("notes", "audio to notes");

    private final String cliName;
    private final String description;

    Task(String cliName, String description) {
        this.cliName = cliName;
        this.description = description;
    }

    /**
     * The {@code --task} spelling.
     *
     * @return {@code "vad"}, {@code "asr"} or {@code "tts"}
     */
    public String cliName() {
        return cliName;
    }

    /**
     * What the task is, for messages.
     *
     * @return a few lower-case words, e.g. "speech recognition"
     */
    public String description() {
        return description;
    }

    /**
     * The task named {@code name} (case-insensitive); unknown names fail listing the valid ones.
     *
     * @param name a {@link #cliName()}, surrounding space ignored
     * @return the task of that {@link #cliName()}
     * @throws IllegalArgumentException if no task has that name
     */
    public static Task parse(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        for (Task t : values()) if (t.cliName.equals(n)) return t;
        throw new IllegalArgumentException("unknown task '" + name + "'; tasks: "
                + Arrays.stream(values()).map(Task::cliName).collect(Collectors.joining(", ")));
    }
}
