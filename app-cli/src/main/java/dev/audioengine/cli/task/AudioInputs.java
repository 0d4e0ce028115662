package dev.audioengine.cli.task;

import dev.audioengine.audio.AudioStream;
import dev.audioengine.cli.UsageError;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;

/**
 * What {@code --audio} names, expanded into the files to process, in order: files as given, the audio files of a folder
 * (by extension, sorted, not recursive), a glob the shell did not expand ({@code 'clips/*.wav'}), or {@code -} for
 * standard input. Every file is checked before any model runs, so a typo in the tenth name fails at once.
 */
public final class AudioInputs {
    /** Standard input, as {@code -} names it. */
    public static final Path STDIN = Path.of("-");

    /** Extensions a folder is searched for: WAV, what libsndfile decodes, and what FFmpeg adds (videos included). */
    static final Set<String> AUDIO_EXTENSIONS = Set.of(
            "wav", "wave", "flac", "ogg", "oga", "opus", "mp3", "aiff", "aif", "aifc", "au", "snd", "w64", "caf",
            "webm", "weba", "mkv", "mka", "mp4", "m4a", "m4b", "mov", "aac", "amr", "awb", "3gp", "wma", "spx", "ac3");

    private AudioInputs() {}

    public static List<Path> expand(List<String> args) throws IOException {
        List<Path> files = new ArrayList<>();
        for (String a : args) {
            if (a.equals("-")) {
                if (files.contains(STDIN)) throw new UsageError("--audio - (standard input) can be given once");
                files.add(STDIN);
            } else if (isGlob(a)) {
                files.addAll(glob(a));
            } else {
                Path p = Path.of(a);
                if (Files.isDirectory(p)) files.addAll(folder(p));
                else files.add(checkedFile(p));
            }
        }
        if (files.isEmpty()) throw new UsageError("--audio named no audio file");
        return files;
    }

    /** Opens one expanded input for decoding, standard input included; {@code audioStream} as AudioStream takes it. */
    static AudioStream open(Path input, int audioStream, Consumer<String> warnings) throws IOException {
        return input.equals(STDIN)
                ? AudioStream.open(System.in, "standard input", audioStream, warnings)
                : AudioStream.open(input, audioStream, warnings);
    }

    /** How messages name an input: its path, or "standard input". */
    public static String describe(Path input) {
        return input.equals(STDIN) ? "standard input" : input.toString();
    }

    private static Path checkedFile(Path p) throws IOException {
        if (!Files.exists(p)) throw new NoSuchFileException(p.toString(), null, "no such audio file");
        if (!Files.isRegularFile(p)) throw new IOException(p + " is not a regular file");
        if (!Files.isReadable(p)) throw new AccessDeniedException(p.toString(), null, "the audio file is not readable");
        return p;
    }

    private static List<Path> folder(Path dir) throws IOException {
        try (var entries = Files.list(dir)) {
            List<Path> audio = entries.filter(Files::isRegularFile)
                    .filter(AudioInputs::hasAudioExtension)
                    .sorted()
                    .toList();
            if (audio.isEmpty())
                throw new IOException(dir + " is a folder with no audio files ("
                        + String.join(", ", AUDIO_EXTENSIONS.stream().sorted().toList()) + ")");
            return audio;
        }
    }

    private static List<Path> glob(String pattern) throws IOException {
        Path whole = Path.of(pattern);
        Path dir = whole.getParent() == null ? Path.of(".") : whole.getParent();
        if (isGlob(dir.toString()))
            throw new UsageError(
                    "--audio " + pattern + ": wildcards are allowed in the file name only, not in folders");
        PathMatcher m = FileSystems.getDefault().getPathMatcher("glob:" + whole.getFileName());
        if (!Files.isDirectory(dir))
            throw new NoSuchFileException(dir.toString(), null, "no such folder for --audio " + pattern);
        try (var entries = Files.list(dir)) {
            List<Path> hits = entries.filter(p -> m.matches(p.getFileName()))
                    .filter(Files::isRegularFile)
                    .map(p -> whole.getParent() == null ? p.getFileName() : p)
                    .sorted()
                    .toList();
            if (hits.isEmpty()) throw new NoSuchFileException(pattern, null, "no file matches");
            return hits;
        }
    }

    private static boolean isGlob(String s) {
        return s.indexOf('*') >= 0 || s.indexOf('?') >= 0 || s.indexOf('[') >= 0;
    }

    private static boolean hasAudioExtension(Path p) {
        String n = p.getFileName().toString();
        int dot = n.lastIndexOf('.');
        return dot > 0 && AUDIO_EXTENSIONS.contains(n.substring(dot + 1).toLowerCase(Locale.ROOT));
    }
}
