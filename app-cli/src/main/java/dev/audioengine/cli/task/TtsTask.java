package dev.audioengine.cli.task;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.cli.UsageError;
import dev.audioengine.model.output.JsonWriter;
import dev.audioengine.model.output.WavStreamWriter;
import dev.audioengine.model.task.SpeechSynthesizer;
import dev.audioengine.model.task.SpeechSynthesizer.SpeechPiece;
import dev.audioengine.model.task.SynthesisOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import picocli.CommandLine.Option;

/**
 * {@code --task tts}: the text spoken into a 16-bit PCM WAV file (or standard output), written piece by piece as the
 * model makes it, in memory bounded by a piece whatever the text's length.
 */
public final class TtsTask {
    static final Path STDOUT = Path.of("-");

    @Option(
            names = "--text",
            paramLabel = "TEXT",
            description = "The text to say (- reads it from standard input, as --text-file - does).")
    String text;

    @Option(
            names = "--text-file",
            paramLabel = "FILE",
            description = "Say the UTF-8 text of FILE (- for standard input). It is "
                    + "read as it is spoken, in either mode, so a book takes the memory of a sentence.")
    Path textFile;

    @Option(
            names = "--voice",
            paramLabel = "NAME",
            description = "A voice of the model ('audioengine voices' lists them, e.g. "
                    + "af_heart, bm_george). Default: the model's default voice.")
    String voice;

    @Option(
            names = "--speed",
            paramLabel = "X",
            description = "Pace: 1 is the voice's own, 2 twice as fast; within [0.25, 4]. Default: 1.")
    Double speed;

    /** --out, shared with --task notes (picocli allows a name once per command): set by TaskOptions. */
    Path out;

    private SynthesisOptions options;
    private TextSource source;
    private boolean streaming;

    /** Everything that can be wrong with the request itself, checked before a model is pulled or loaded. */
    void checkBeforeLoading(boolean streaming, boolean json, Supplier<InputStream> stdin) throws IOException {
        this.streaming = streaming;
        if (text != null && textFile != null)
            throw new UsageError("give the text once: --text or --text-file, not both");
        if (text == null && textFile == null) {
            throw new UsageError(
                    "--task tts needs the text to say: --text \"...\" or --text-file FILE (- for standard input)");
        }
        if (text != null && text.isBlank()) throw new UsageError("--text is empty; give the words to say");
        if ("-".equals(text)) { // as for --text-file and --audio: a lone "-" is no text anyone means to hear said
            textFile = TextSource.STDIN;
            text = null;
        }
        if (textFile != null && !textFile.equals(TextSource.STDIN)) {
            if (!Files.exists(textFile))
                throw new NoSuchFileException(textFile.toString(), null, "the --text-file does not exist");
            if (Files.isDirectory(textFile))
                throw new IOException("--text-file " + textFile + " is a folder; name a text file");
        }
        if (out == null) {
            throw new UsageError(
                    "--task tts needs --out FILE.wav for the audio (or --out - to write the WAV to standard output)");
        }
        if (out.equals(STDOUT) && json) {
            throw new UsageError(
                    "--json prints to standard output, which --out - fills with the WAV; write the audio to a file "
                            + "(--out FILE.wav) to have both");
        }
        if (!out.equals(STDOUT)) {
            OutputPaths.check("--out", out, 1);
            // the WAV is written beside --out and moved over it: a FIFO or a device would be replaced by a file
            if (Files.exists(out) && !Files.isRegularFile(out)) {
                throw new IOException("--out " + out
                        + " is not a regular file (a pipe or a device); write to a file, or to standard output"
                        + " with --out - and redirect that");
            }
            if (textFile != null)
                OutputPaths.refuseOverwriting(List.of(textFile), List.of(new OutputPaths.Output("--out", out)));
        }
        options = SynthesisOptions.DEFAULTS;
        if (speed != null) {
            try {
                options = SynthesisOptions.DEFAULTS.withSpeed(speed);
            } catch (IllegalArgumentException e) {
                throw new UsageError("--speed: " + e.getMessage(), e);
            }
        }
        source = new TextSource(text, textFile, stdin);
    }

    /**
     * A voice the model does not have is a usage error (known once the model is loaded) naming the voices spelled
     * closest to it, else all of them.
     */
    public static SynthesisOptions withVoice(SynthesisOptions options, String voice, SpeechSynthesizer tts) {
        if (voice == null) return options;
        List<String> names =
                tts.voices().stream().map(SpeechSynthesizer.Voice::name).toList();
        if (!names.contains(voice)) {
            List<String> close = closest(voice, names);
            throw new UsageError("unknown voice '" + voice + "'; "
                    + (close.isEmpty()
                            ? tts.describe() + " has " + String.join(", ", names)
                                    + " ('audioengine voices' lists their languages)"
                            : "did you mean " + String.join(" or ", close) + "? ('audioengine voices' lists all "
                                    + names.size() + " with their languages)"));
        }
        return options.withVoice(voice);
    }

    /**
     * Up to three names within a few edits of {@code wanted} (case aside), nearest first; a name's part after '_'
     * counts too, so "heart" finds af_heart.
     */
    static List<String> closest(String wanted, List<String> names) {
        String w = wanted.toLowerCase(Locale.ROOT);
        int allowed = Math.max(2, w.length() / 3);
        record Near(String name, int distance) {}
        List<Near> near = new ArrayList<>();
        for (String name : names) {
            String n = name.toLowerCase(Locale.ROOT);
            int d = editDistance(w, n);
            int underscore = n.indexOf('_');
            if (underscore >= 0) d = Math.min(d, editDistance(w, n.substring(underscore + 1)));
            if (d <= allowed) near.add(new Near(name, d));
        }
        near.sort(Comparator.comparingInt(Near::distance).thenComparing(Near::name));
        return near.stream().limit(3).map(Near::name).toList();
    }

    /** Levenshtein distance: insertions, deletions and substitutions of one char. */
    private static int editDistance(String a, String b) {
        int[] prev = new int[b.length() + 1], cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) prev[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                cur[j] = Math.min(
                        Math.min(cur[j - 1], prev[j]) + 1, prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    /** What one run produced, for the summary and --json. */
    private record Result(long samples, int pieceCount, List<Piece> pieces, double firstAudioSeconds) {}

    /** A piece without its samples: what --json prints of it. */
    private record Piece(String text, String phonemes, double seconds) {
        Piece(SpeechPiece p) {
            this(p.text(), p.phonemes(), p.seconds());
        }
    }

    void run(TaskRun run, AudioEngine engine, SpeechSynthesizer tts, Supplier<OutputStream> stdout) throws IOException {
        SynthesisOptions opts = withVoice(options, voice, tts);
        String voiceName = voice != null ? voice : tts.defaultVoice();
        long t0 = System.nanoTime();
        Result r = synthesize(tts, opts, run, stdout, t0);
        double wall = (System.nanoTime() - t0) / 1e9;
        double audioSeconds = r.samples() / (double) tts.sampleRate();
        if (run.json) {
            run.out.println(json(r, tts, engine, voiceName, audioSeconds, wall));
            run.out.flush();
        }
        run.note(String.format(
                Locale.ROOT,
                "%s: %d piece%s, %.2f s of audio at %d Hz in %.0f ms (%s on %s, voice %s, %.1fx real time, "
                        + "first audio after %.0f ms)",
                out.equals(STDOUT) ? "standard output" : out,
                r.pieceCount(),
                r.pieceCount() == 1 ? "" : "s",
                audioSeconds,
                tts.sampleRate(),
                wall * 1e3,
                tts.describe(),
                engine.backend().registryName(),
                voiceName == null ? "(the model's default)" : voiceName,
                audioSeconds / Math.max(wall, 1e-9),
                r.firstAudioSeconds() * 1e3));
        run.runSummary(tts);
    }

    /**
     * The pieces as the model makes them, each written as it comes and then let go, in both modes: the model reads the
     * text as it speaks, and only the current piece's audio is held (and, for --json, each piece's text and phonemes),
     * so a book takes the memory of a sentence. A file gets its exact WAV sizes once it is complete. The modes differ
     * on standard output only: streaming writes each piece there at once (sizes 0xFFFFFFFF, "to the end of the
     * stream"); offline writes a temporary file first and then copies it, so that the sizes there are exact too. The
     * first audio is the first piece written when streaming, the whole file offline. A run stopped by SIGTERM or
     * Ctrl-C ends as {@link Stop} says.
     */
    private Result synthesize(
            SpeechSynthesizer tts, SynthesisOptions opts, TaskRun run, Supplier<OutputStream> stdout, long t0)
            throws IOException {
        List<Piece> kept = new ArrayList<>();
        int count = 0;
        double first = 0;
        boolean toStdout = out.equals(STDOUT);
        Path spool = toStdout && !streaming ? Files.createTempFile("audioengine-tts-", ".wav") : null;
        try (Reader text = source.open();
                ReplacingFile file = toStdout ? null : new ReplacingFile(out);
                Stop stop = new Stop(run, file, spool, tts.sampleRate())) {
            Iterator<SpeechPiece> pieces = named(() -> tts.stream(text, opts));
            WavStreamWriter wav = null;
            try {
                while (named(pieces::hasNext)) {
                    SpeechPiece p = named(pieces::next);
                    if (p.sampleRate() != tts.sampleRate()) {
                        throw new IllegalStateException(tts.describe() + " made a piece at " + p.sampleRate()
                                + " Hz in a " + tts.sampleRate() + " Hz stream");
                    }
                    stop.lock.lock();
                    try {
                        stop.waitIfStopped();
                        if (wav == null) {
                            first = (System.nanoTime() - t0) / 1e9;
                            try {
                                wav = spool != null
                                        ? WavStreamWriter.toFile(spool, tts.sampleRate())
                                        : file == null
                                                ? WavStreamWriter.toStream(stdout.get(), tts.sampleRate())
                                                : WavStreamWriter.toFile(file.temp(), tts.sampleRate());
                            } catch (IOException e) {
                                throw file != null ? file.named("--out", e) : e;
                            }
                            stop.wav = wav;
                        }
                        wav.write(p.samples());
                        stop.pieces++;
                    } finally {
                        stop.lock.unlock();
                    }
                    count++;
                    // the samples go: only what --json prints is kept
                    if (run.json) kept.add(new Piece(p));
                    run.progress("", wav.samples() / (double) tts.sampleRate(), 0, (System.nanoTime() - t0) / 1e9);
                }
                if (wav == null)
                    throw new IllegalArgumentException(
                            source.describe() + ": the text has nothing to say: no speakable characters");
                stop.lock.lock();
                try {
                    stop.waitIfStopped();
                    wav.close();
                    if (file != null) {
                        try {
                            file.commit();
                        } catch (IOException e) {
                            throw file.named("--out", e);
                        }
                    }
                } finally {
                    stop.lock.unlock();
                }
                run.endProgress();
                if (spool != null) {
                    OutputStream o = stdout.get();
                    Files.copy(spool, o);
                    o.flush();
                }
                if (!streaming) first = (System.nanoTime() - t0) / 1e9;
                return new Result(wav.samples(), count, kept, first);
            } finally {
                if (wav != null) wav.close();
            }
        } finally {
            if (spool != null) Files.deleteIfExists(spool);
        }
    }

    /**
     * What SIGTERM or Ctrl-C (the JVM's shutdown hooks) does to the output being written. Streaming promised each piece
     * in --out as it is made, so the pieces made so far are put there as a complete WAV (its sizes patched) and the
     * summary says so; offline promised the file only once whole, so the partial file is removed and --out is left as
     * it was. A temporary copy for standard output is removed either way. The hook and the writing take turns on
     * {@link #lock}, so a WAV is never finished in the middle of a piece.
     */
    private final class Stop implements AutoCloseable {
        /** How long the hook waits for a piece being written: a file write takes far less, and the JVM must still exit. */
        private static final long WAIT_SECONDS = 10;

        final ReentrantLock lock = new ReentrantLock();
        WavStreamWriter wav;
        int pieces;
        private boolean stopped;
        private final TaskRun run;
        private final ReplacingFile file;
        private final Path spool;
        private final int sampleRate;
        private final Thread hook = new Thread(this::stopped, "audioengine-tts-stop");

        Stop(TaskRun run, ReplacingFile file, Path spool, int sampleRate) {
            this.run = run;
            this.file = file;
            this.spool = spool;
            this.sampleRate = sampleRate;
            Runtime.getRuntime().addShutdownHook(hook);
        }

        private void stopped() {
            try {
                if (spool != null) Files.deleteIfExists(spool);
                if (file == null || !lock.tryLock(WAIT_SECONDS, TimeUnit.SECONDS)) return;
            } catch (IOException | InterruptedException e) {
                return;
            }
            try {
                stopped = true;
                if (file.committed()) return;
                if (streaming && wav != null) {
                    long samples = wav.samples();
                    wav.close();
                    file.commit();
                    run.note(String.format(
                            Locale.ROOT,
                            "stopped: %s holds the %d piece%s made, %.2f s of audio",
                            out,
                            pieces,
                            pieces == 1 ? "" : "s",
                            samples / (double) sampleRate));
                } else {
                    file.close();
                    run.note("stopped: " + out + " was not written"
                            + (Files.exists(out) ? " (the earlier file is as it was)" : ""));
                }
            } catch (IOException e) {
                run.err.println("error: stopping: " + file.named("--out", e).getMessage());
                run.err.flush();
            } finally {
                lock.unlock();
            }
        }

        /**
         * Past the hook the output is settled and the JVM is exiting: the writing thread waits for that rather than
         * write into a closed file or report the stop as a failure.
         */
        void waitIfStopped() {
            while (stopped) LockSupport.park(this);
        }

        @Override
        public void close() {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook runs
            }
        }
    }

    /** The text's name in front of what the model says is wrong with it (a language it does not speak). */
    private <T> T named(Supplier<T> call) {
        try {
            return call.get();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source.describe() + ": " + e.getMessage(), e);
        }
    }

    private String json(
            Result r, SpeechSynthesizer tts, AudioEngine engine, String voiceName, double audioSeconds, double wall) {
        JsonWriter w = new JsonWriter()
                .beginObject()
                .name("out")
                .value(out.toString())
                .name("voice")
                .value(voiceName)
                .name("model")
                .value(tts.describe())
                .name("backend")
                .value(engine.backend().registryName())
                .name("mode")
                .value(streaming ? "streaming" : "offline")
                .name("sample_rate")
                .value(tts.sampleRate())
                .name("audio_seconds")
                .number(round(audioSeconds, 1e4))
                .name("seconds")
                .number(round(wall, 1e4))
                .name("realtime_factor")
                .number(round(audioSeconds / Math.max(wall, 1e-9), 100))
                .name("first_audio_ms")
                .number(round(r.firstAudioSeconds() * 1e3, 10))
                .name("pieces")
                .beginArray();
        for (Piece p : r.pieces()) {
            w.beginObject()
                    .name("text")
                    .value(p.text())
                    .name("phonemes")
                    .value(p.phonemes())
                    .name("seconds")
                    .number(round(p.seconds(), 1e4))
                    .endObject();
        }
        return w.endArray().endObject().toString();
    }

    private static double round(double v, double scale) {
        return Math.round(v * scale) / scale;
    }
}
